import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig, type Plugin } from 'vitest/config';

const apiServer = 'http://127.0.0.1:8080';

/**
 * The server contract (docs/decisions.md, D20) puts `<!--lw:payload-->` in <body>
 * before the script, and `<!--lw:head-->` at the end of <head>, after the stylesheet
 * Vite injects. The app's entry is not a script tag of its own: the page loads the small
 * boot script (src/boot.ts), which starts the entry once the server-written first screen
 * has painted (D156); the server names the entry and the screen's chunks in the head.
 */
function bootScriptInBody(): Plugin {
  return {
    name: 'localwire-boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const script = /\s*<script type="module" crossorigin src="[^"]+"><\/script>/.exec(html);
        const boot = Object.values(ctx.bundle ?? {}).find(
          (chunk) => chunk.type === 'chunk' && chunk.name === 'boot',
        );
        if (!script || !boot) throw new Error('the build lacks the entry or the boot script');
        const withoutScript = html.replace(script[0], '');
        // The page's own head (title, meta, styles: D147) goes after the app's
        // stylesheet, so the browser asks for that render-blocking file first.
        const headLast = withoutScript
          .replace(/\s*<!--lw:head-->/, '')
          .replace('</head>', '  <!--lw:head-->\n  </head>');
        const tag = `<script type="module" crossorigin src="/${boot.fileName}" fetchpriority="low"></script>`;
        return headLast.replace('</body>', `  ${tag}\n  </body>`);
      },
    },
  };
}

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  // JSON modules are only ever imported whole. A catalogue (over 10 KB) becomes one
  // JSON.parse string, 8 KB brotli instead of 14 KB as a named export per key (D415).
  json: { namedExports: false, stringify: 'auto' },
  plugins: [
    bootScriptInBody(),
    // The service worker (src/sw/sw.ts, D390): Workbox, built into /sw.js with the list of
    // files to precache. The app registers it itself (features/offline/register.ts) and
    // keeps its own manifest (public/manifest.webmanifest).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // A classic script: every browser with service workers runs it.
        rollupFormat: 'iife',
        // The app's scripts and styles (every screen and language: any may be opened
        // offline), its icons and the offline page; not the flags or demo pictures.
        globPatterns: ['assets/*.{js,css}', 'icons/*.png', 'favicon.*', 'offline.html'],
        // Hashed file names are their own version.
        dontCacheBustURLsMatching: /^assets\//,
        maximumFileSizeToCacheInBytes: 1024 * 1024,
      },
    }),
  ],
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
      // The boot script is its own entry (D156): index.html names only it.
      input: { index: 'index.html', boot: 'src/boot.ts' },
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
    // Room for findBy*'s 5 s limit (src/test/setup.ts) inside one test.
    testTimeout: 20_000,
  },
});
