// Prints the gzipped JavaScript each route needs (entry chunk + the route's lazy
// chunk + their static imports), read from the Vite manifest after `npm run build`.
// Exits 1 when a route goes over the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const DIST = new URL('../dist/', import.meta.url).pathname;
const ROUTES = {
  '/login': 'src/features/auth/components/LoginPage.tsx',
  '/': 'src/features/dashboard/components/DashboardPage.tsx',
  '/404': 'src/features/misc/components/NotFoundPage.tsx',
};

const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8'));

function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) withStaticImports(dep, seen);
  return seen;
}

function gzipKb(file) {
  return gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length / 1024;
}

let failed = false;
for (const [path, source] of Object.entries(ROUTES)) {
  if (!manifest[source]) throw new Error(`${source} is not a chunk in the manifest`);
  const keys = new Set([...withStaticImports('index.html'), ...withStaticImports(source)]);
  const files = [...keys].map((key) => manifest[key].file);
  const total = files.reduce((sum, file) => sum + gzipKb(file), 0);
  const over = total > BUDGET_KB;
  failed ||= over;
  console.log(`${path.padEnd(8)} ${total.toFixed(1).padStart(7)} KB gzip  ${over ? 'OVER BUDGET ' : ''}(${files.join(' + ')})`);
}
console.log(`budget: ${BUDGET_KB} KB gzip per route`);
process.exit(failed ? 1 : 0);
