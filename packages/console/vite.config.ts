// Builds the console app (app/) into dist/app/. `base: './'` makes every asset URL
// relative (`./assets/…`), so the host chooses the prefix when it mounts the handler.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'app',
  base: './',
  publicDir: false,
  resolve: { conditions: ['@programrun/source', 'browser', 'module', 'import', 'default'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    target: 'es2022',
    // The CSP forbids inline scripts: no modulepreload polyfill, no inlined assets.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    sourcemap: false,
    reportCompressedSize: true,
  },
});
