/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devVariant } from './plugins/dev-variant';
import { preloadFirstScreen } from './plugins/preload-first-screen';
import { backOfficeChunk, sharedChunks } from './plugins/shared-chunks';
import { testsNeedingIsolation } from './plugins/test-isolation';

// The backend serves dist/ at / and the API under /api; in `vite dev` we proxy to it.
const backend = process.env.PAO_BACKEND_URL ?? 'http://127.0.0.1:8000';

// react-router's package points bundlers at its development build (invariant messages and
// warnings kept); its own framework plugin swaps in the production one, which we do by hand for
// builds: 0.5 KiB gzip less on every screen's first download.
const reactRouterProduction = {
  find: /^react-router$/,
  replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)),
};

const testFiles = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'plugins/**/*.test.ts'];
// Read only when vitest loads this file (it sets VITEST), not for every build.
const isolated = process.env.VITEST
  ? testsNeedingIsolation(fileURLToPath(new URL('.', import.meta.url)), ['src', 'scripts', 'plugins'])
  : [];

export default defineConfig(({ command }) => ({
  // One build for every operator: the server tells the app its variant (src/lib/variant.ts).
  plugins: [react(), preloadFirstScreen(), devVariant()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? [reactRouterProduction] : []),
    ],
  },
  build: {
    target: 'es2020',
    // The bundle budget check reads the manifest to find what /login loads.
    manifest: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    // One stylesheet for the whole app (≈ 8 KiB gzip), linked by index.html: over HTTP/1.1 each
    // screen's own stylesheet took one of the six connections the first paint's scripts need.
    cssCodeSplit: false,
    // terser squeezes a few KiB more than esbuild out of the login route (see the bundle budget).
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rollupOptions: {
      // Two documents: the player app (index.html) and the back office (backoffice.html), which
      // only staff load. Every chunk holding back-office code is named bo-…, so that
      // scripts/check-bundle.mjs can prove the player's entry never reaches one.
      input: { main: 'index.html', backoffice: 'backoffice.html' },
      output: {
        manualChunks: sharedChunks,
        entryFileNames: (chunk) => `assets/${backOfficeChunk(chunk.moduleIds) ? 'bo-' : ''}[name]-[hash].js`,
        chunkFileNames: (chunk) => `assets/${backOfficeChunk(chunk.moduleIds) ? 'bo-' : ''}[name]-[hash].js`,
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/sandbox': backend,
      '/healthz': backend,
      // The support chat's socket.io (websocket upgrade included).
      '/socket.io': { target: backend, ws: true },
    },
  },
  test: {
    environment: 'node',
    // Worker threads, not child processes: a third of the run less (10 s, 15 s as forks).
    pool: 'threads',
    // Two runs of one suite: the files that mock a module or stub a global, each in its own
    // module registry; the rest sharing one (plugins/test-isolation.ts).
    projects: [
      { extends: true, test: { name: 'isolated', include: isolated } },
      { extends: true, test: { name: 'shared', include: testFiles, exclude: isolated, isolate: false } },
    ],
  },
}));
