// Prints the gzipped JavaScript each route needs (entry chunk + the route's lazy
// chunk + their static imports), read from the Vite manifest after `npm run build`,
// then the benchmark line for the sign-in + dashboard journey:
//   BENCH web_initial_js_gz_kb <KB>   (entry + vendor + both route chunks, each file once)
// Exits 1 when a route, or that journey, goes over the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const DIST = new URL('../dist/', import.meta.url).pathname;
const LOGIN = 'src/features/auth/components/LoginPage.tsx';
const DASHBOARD = 'src/features/dashboard/components/DashboardPage.tsx';
const ROUTES = {
  '/login': LOGIN,
  '/': DASHBOARD,
  '/404': 'src/features/misc/components/NotFoundPage.tsx',
  // its charts (Chart.js) are a lazy chunk of their own, loaded only when there are results to draw
  '/collaborations': 'src/features/collaborations/components/CollaborationsPage.tsx',
};

const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8'));

function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) withStaticImports(dep, seen);
  return seen;
}

function chunkOf(source) {
  if (!manifest[source]) throw new Error(`${source} is not a chunk in the manifest`);
  return source;
}

const sizes = new Map();
function gzipKb(file) {
  if (!sizes.has(file)) {
    sizes.set(file, gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length / 1024);
  }
  return sizes.get(file);
}

/** The files loaded for these route chunks, each counted once. */
function filesFor(sources) {
  const keys = new Set(withStaticImports('index.html'));
  for (const source of sources) withStaticImports(chunkOf(source), keys);
  return [...new Set([...keys].map((key) => manifest[key].file))].filter((file) => file.endsWith('.js'));
}

const totalKb = (files) => files.reduce((sum, file) => sum + gzipKb(file), 0);

let failed = false;
for (const [path, source] of Object.entries(ROUTES)) {
  const files = filesFor([source]);
  const total = totalKb(files);
  const over = total > BUDGET_KB;
  failed ||= over;
  console.log(`${path.padEnd(8)} ${total.toFixed(1).padStart(7)} KB gzip  ${over ? 'OVER BUDGET ' : ''}(${files.join(' + ')})`);
}

const journey = filesFor([LOGIN, DASHBOARD]);
const journeyKb = totalKb(journey);
const journeyOver = journeyKb > BUDGET_KB;
failed ||= journeyOver;
console.log(`login+dashboard ${journeyKb.toFixed(1)} KB gzip  ${journeyOver ? 'OVER BUDGET ' : ''}(${journey.join(' + ')})`);
console.log(`budget: ${BUDGET_KB} KB gzip per route and for login+dashboard`);
console.log(`BENCH web_initial_js_gz_kb ${journeyKb.toFixed(1)}`);
process.exit(failed ? 1 : 0);
