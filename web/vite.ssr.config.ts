import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The server's first-screen renderer (D424): `src/ssr/entry.ts` and the whole app in
 * one classic script, `dist/.server/first-screen.js`, which the server runs in QuickJS
 * (crates/render). Built after the client (`npm run build`), so one build has both. The
 * folder's leading dot keeps it off the web: the server never serves a hidden path.
 */

/** The screen's styles come with the page; the renderer writes markup only. */
function withoutStyles(): Plugin {
  return {
    name: 'localwire-ssr-without-styles',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) if (name.endsWith('.css')) delete bundle[name];
    },
  };
}
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  plugins: [withoutStyles()],
  json: { namedExports: false, stringify: 'auto' },
  // React's production build: no development checks in a render.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  resolve: {
    alias: {
      // The legacy server renderer: `renderToStaticMarkup` without the streaming one,
      // which needs MessageChannel and TextEncoder when it loads.
      'react-dom/server': fileURLToPath(
        new URL(
          './node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js',
          import.meta.url,
        ),
      ),
    },
  },
  build: {
    outDir: 'dist/.server',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    copyPublicDir: false,
    minify: 'esbuild',
    // Nothing to warn about: this script is read from disk once, at start.
    chunkSizeWarningLimit: 4096,
    lib: {
      entry: 'src/ssr/entry.ts',
      formats: ['iife'],
      name: 'FirstScreen',
      fileName: () => 'first-screen.js',
    },
    rollupOptions: {
      // The lazy screens and the catalogues: one script (QuickJS loads no modules).
      output: { inlineDynamicImports: true },
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
