import { defineConfig, type Plugin } from 'vitest/config';

const apiServer = 'http://127.0.0.1:8080';

/**
 * The server contract (docs/decisions.md, D20) puts `<!--lw:payload-->` in <body>
 * before the module script. Vite injects the entry script into <head>; move it to
 * the end of <body> so the shell keeps the documented order, and `<!--lw:head-->` to
 * the end of <head>, after the stylesheet Vite injects.
 */
function entryScriptToBody(): Plugin {
  return {
    name: 'localwire-entry-script-to-body',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const script = /\s*<script type="module" crossorigin src="[^"]+"><\/script>/.exec(html);
        if (!script) return html;
        const withoutScript = html.replace(script[0], '');
        // The page's own head (title, meta, preloads: D147) goes after the app's
        // stylesheet, so the browser asks for that render-blocking file first.
        const headLast = withoutScript
          .replace(/\s*<!--lw:head-->/, '')
          .replace('</head>', '  <!--lw:head-->\n  </head>');
        return headLast.replace('</body>', `  ${script[0].trim()}\n  </body>`);
      },
    },
  };
}

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  plugins: [entryScriptToBody()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // .vite/manifest.json: the server preloads each screen's chunks from it (D147).
    manifest: true,
    // Every browser that runs this ES2022 bundle supports <link rel="modulepreload">.
    modulePreload: { polyfill: false },
    // Inlined assets would become data: URLs; keep every asset a hashed file.
    assetsInlineLimit: 0,
    // terser saves about 4 KB gzip over esbuild on the first load (D24).
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rollupOptions: {
      onwarn(warning, warn) {
        // Libraries mark client modules with "use client"; meaningless in a SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': apiServer,
      '/_app': apiServer,
      '/healthz': apiServer,
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
