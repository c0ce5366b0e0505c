import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
) as { version: string };

const apiTarget = 'http://127.0.0.1:8080';
const apiProxy = { '/api': { target: apiTarget } };

export default defineConfig(({ command }) => ({
  plugins: [react()],
  // The app version, shown to admins in the footer.
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(version) },
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // react-router's package exports point every bundler at its development build (dev
      // warnings on); the build ships its production build instead.
      ...(command === 'build'
        ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) }]
        : []),
    ],
  },
  server: { port: 5173, strictPort: false, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    // The manifest lets scripts/bundle-size.mjs work out what each route loads.
    manifest: true,
    // No source maps: they carry the whole TypeScript source, and dist is what the public
    // bucket serves (infra/deploy_web.py also never uploads a *.map).
    sourcemap: false,
    target: 'es2022',
    // Terser (Vite's other minifier) makes the first load 3.4 KB gzip smaller than esbuild's
    // minify (React 19 ships its production build unminified); it costs the build about 13 s of CPU.
    minify: 'terser',
    // Every browser that runs es2022 code preloads modules itself, or (Safari before 17) simply
    // loads them when imported: Vite's modulepreload polyfill is not needed in the entry.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // The framework changes far less often than app code: keep it cacheable apart.
        manualChunks: { vendor: ['react', 'react-dom', 'react-dom/client', 'react-router', '@tanstack/react-query'] },
      },
    },
  },
  test: {
    // happy-dom, not jsdom: the same 77 files in 0.6 of the CPU (docs/decisions.md 2026-12-07).
    environment: 'happy-dom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // A screen test renders lazy routes and waits (findBy, up to 5 s each) several times; the
    // default 5 s per test failed on a busy 2-core machine although nothing was wrong.
    testTimeout: 30_000,
    restoreMocks: true,
    unstubGlobals: true,
    // Each test file in a fresh VM context of a kept worker, not a fresh process: every file
    // still gets its own globals, document and modules, but Node, Vitest and happy-dom load once
    // per worker, and happy-dom's classes with them: a prototype a test patches is the next
    // file's too (src/testing/dialog-shim.ts keeps its state there for that reason). CPU 248 s
    // to 119 s, 77 files, on jsdom (docs/decisions.md 2026-12-03). A test cannot redefine the
    // context's `location`: it watches leaveApp instead.
    pool: 'vmThreads',
    // A VM context's modules stay in its worker's heap until the worker is replaced: recycle a
    // worker past 1 GB (the default is a share of the machine's memory, ~11 GB here).
    poolOptions: { vmThreads: { memoryLimit: '1GB' } },
    // Vitest's default is one worker per core but one: a single worker on CI's 2 cores, where the
    // main process mostly waits. Two workers there (`make test` BENCH ci_web_test_s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
}));
