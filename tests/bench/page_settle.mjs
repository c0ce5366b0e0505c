// Headless Chromium against a running local stack (tests/bench/page_settle.py starts one and
// passes its URL): how long pages take to settle, in milliseconds from the navigation's start
// to the page's last DOM change once the network is idle (a MutationObserver set before any
// script runs), and how many API calls and rounds of calls (a call that starts after another
// ended is a round later) each took. Prints one JSON object on stdout; nothing is asserted.
// tests/e2e's Playwright (its node_modules), as the journeys use it.
const { chromium } = await import(new URL('../e2e/node_modules/playwright/index.mjs', import.meta.url).href);

const BASE = process.argv[2];
const REPEATS = Number(process.env.BENCH_SETTLE_REPEATS ?? 5);
const LINKS = Number(process.env.BENCH_SETTLE_LINKS ?? 3);
const DEMO = { email: 'demo@tandem.local', password: 'Oat-Honey-Bristol-26' }; // infra/local/seed.py
const ADMIN = { email: 'admin@tandem.local', password: 'Kestrel-Quay-Admin-4' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function call(method, path, token, body, brand) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (brand) headers['x-brand-id'] = String(brand);
  const answer = await fetch(BASE + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const logIn = async (who) => (await call('POST', '/api/users/login', null, who)).access_token;

async function mails() {
  const html = await (await fetch(BASE + '/__local/outbox')).text();
  return html.split('<article>').slice(1).map((article) => ({
    text: article,
    links: [...article.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&')),
  }));
}

async function linkIn(filter, part) {
  for (let i = 0; i < 100; i++) {
    const found = (await mails()).find(filter)?.links.find((href) => href.includes(part));
    if (found) return new URL(found).pathname;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no email with a ${part} link`);
}

/** A new member with a free trial (granted by the admin) sends demo's first brand a request: demo's email has a sign-in link. */
async function signInLinkForDemo(adminToken, demoBrand, n) {
  const email = `settle.${Date.now().toString(36)}.${n}@example.com`;
  const password = 'Settle-Bench-2026';
  await call('POST', '/api/users/create-account', null, { name: 'Sam Settle', email, password, brandName: `Settle Goods ${n}` });
  const confirm = await linkIn((m) => m.text.includes(email) && m.text.includes('Confirm your email'), '/confirm-email/');
  await call('POST', '/api/users/confirm-email', null, { code: confirm.replace('/confirm-email/', '') });
  const token = await logIn({ email, password });
  const { users } = await call('GET', `/api/admin/members?q=${encodeURIComponent(email)}`, adminToken);
  await call('POST', `/api/admin/accounts/${users[0].accountId}/grant`, adminToken, { kind: 'trial' });
  const message = `Settle bench ${n}: shall we run a giveaway together?`;
  await call('POST', '/api/requests', token, { toBrandId: demoBrand, message });
  return linkIn((m) => m.text.includes(message) && m.text.includes(DEMO.email), '/login/');
}

async function settle(context, path, ready) {
  const page = await context.newPage();
  const api = [];
  page.on('requestfinished', (request) => {
    if (!request.url().includes('/api/')) return;
    const timing = request.timing();
    api.push([timing.startTime, timing.startTime + timing.responseEnd]);
  });
  const started = Date.now();
  await page.goto(BASE + path);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const settled = await page.evaluate(() => Math.round(window.__lastChange ?? 0));
  await page.close();
  api.sort((a, b) => a[0] - b[0]);
  let rounds = 0;
  let roundEnd = -Infinity;
  for (const [start, end] of api) {
    if (start >= roundEnd) {
      rounds += 1;
      roundEnd = end;
    } else roundEnd = Math.min(roundEnd, end);
  }
  return { ms: settled, calls: api.length, rounds, wall: Date.now() - started };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    new MutationObserver(() => {
      window.__lastChange = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const signIn = await context.newPage();
  await signIn.goto(BASE + '/login');
  await signIn.getByLabel('Email').fill(DEMO.email);
  await signIn.getByLabel('Password').fill(DEMO.password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await signIn.waitForURL(BASE + '/');
  await signIn.waitForLoadState('networkidle');
  await signIn.close();

  const cards = (page) => page.locator('.match-card').first().waitFor();
  const heading = (page) => page.locator('h1').first().waitFor();
  const out = {};
  // The first view after the seed's match run shows new matches (the menu count drops).
  out.matches_first = await settle(context, '/matches/potentials', cards);
  const runs = { matches: [], requests: [], dashboard: [] };
  for (let i = 0; i < REPEATS; i++) {
    runs.matches.push(await settle(context, '/matches/potentials', cards));
    runs.requests.push(await settle(context, '/requests/received', heading));
    runs.dashboard.push(await settle(context, '/', heading));
  }
  for (const [name, list] of Object.entries(runs)) {
    out[name] = { ms: median(list.map((r) => r.ms)), calls: median(list.map((r) => r.calls)), rounds: median(list.map((r) => r.rounds)) };
  }

  const demo = await logIn(DEMO);
  const demoBrand = (await call('GET', '/api/dashboard', demo)).dashboard.brandId;
  const admin = await logIn(ADMIN);
  const links = [];
  for (let n = 0; n < LINKS; n++) {
    const link = await signInLinkForDemo(admin, demoBrand, n);
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await fresh.addInitScript(() => {
      new MutationObserver(() => {
        window.__lastChange = performance.now();
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    links.push(await settle(fresh, link, (page) => page.locator('.request-card').first().waitFor()));
    await fresh.close();
  }
  out.sign_in_link = { ms: median(links.map((r) => r.ms)), calls: median(links.map((r) => r.calls)), rounds: median(links.map((r) => r.rounds)) };
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
}
