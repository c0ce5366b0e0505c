import type { Browser, Page } from '@playwright/test';
import { expect, test, type A11yWatcher } from './fixtures';
import { ADMIN, DEMO, authed, logIn, newMember, signIn, subscribeMonthly, type Login } from './members';
import { WIDTHS, shot } from './widths';

/**
 * Issue 39, as a member on a laptop (1280x800) and a phone (375x812, 320 for names): a suspended
 * brand's owner stays signed in and is offered nothing they can't do; no page of SPEC section 2
 * scrolls sideways on a phone; a received request never breaks a brand name inside a word.
 */

const stamp = Date.now();

async function pageAt(browser: Browser, a11y: A11yWatcher, who: Login, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  a11y.watch(page);
  await signIn(page, who);
  return page;
}

async function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

for (const size of WIDTHS) {
  test(`${size.name}: a suspended brand's owner stays signed in and is not offered Send request`, async ({ browser, request, a11y }) => {
    test.setTimeout(180_000);
    const who = (name: string, brand: string) => ({
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}.${size.name}.${stamp}@example.com`,
      password: 'Tandem-Trips-2026',
      brand,
    });
    const sus = await newMember(request, who('Sue Suspended', `Sue Socks ${size.name}`));
    const other = await newMember(request, who('Otto Other', `Otto Oils ${size.name}`));
    await subscribeMonthly(request, sus);
    const admin = await logIn(request, ADMIN);
    const done = await request.post(`/api/admin/reports/${sus.brandId}/action`, {
      headers: authed(admin.access_token),
      data: { action: 'suspend' },
    });
    expect(done.status(), await done.text()).toBe(200);

    const page = await pageAt(browser, a11y, sus, size);
    await expect(page.getByText(`Sue Socks ${size.name} is suspended`)).toBeVisible();
    await expect(page.getByText('Find your first partners')).toHaveCount(0);
    await shot(page, `suspended-dashboard-${size.width}`);
    await page.goto(`/brand/${other.brandId}?request=1`);
    await expect(page.getByText("Your brand is suspended, so it can't send requests.")).toBeVisible();
    await expect(page.getByRole('button', { name: /^Send request/ })).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shot(page, `suspended-brand-page-${size.width}`);
    // Still signed in after a reload: nothing ended the session.
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/brand/${other.brandId}`));
  });
}

/** Every private route of SPEC section 2 a seeded member can open without an id of their own. */
const PRIVATE_ROUTES = [
  '/',
  '/account',
  '/account/brands',
  '/account/profile/',
  '/account/subscriptions/',
  '/account/notifications/',
  '/account/blocked',
  '/requests',
  '/requests/received',
  '/requests/sent',
  '/connections',
  '/connections/connected',
  '/declines',
  '/declines/out',
  '/declines/in',
  '/inspiration',
  '/inspiration/ideas',
  '/inspiration/calendar',
  '/inspiration/member-collabs',
  '/matches',
  '/matches/potentials',
  '/matches/saved',
  '/matches/search?q=tea',
  '/pitch',
  '/pitch/new',
  '/collaborations',
  '/collaborations/new',
  '/maintenance',
  '/404',
];
const PUBLIC_ROUTES = ['/login', '/create-account', '/forgot-password', '/404', '/maintenance'];

test('phone: no page of SPEC section 2 scrolls sideways at 375 px', async ({ browser, a11y }) => {
  test.setTimeout(240_000);
  const viewport = { width: 375, height: 812 };
  const page = await pageAt(browser, a11y, DEMO, viewport);
  const wide: string[] = [];
  const check = async (path: string) => {
    await page.goto(path);
    await page.locator('h1').first().waitFor({ state: 'visible' });
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'hidden' }).catch(() => undefined);
    // Every answer in (the Matches tabs widen once their counts arrive).
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    const over = await sideways(page);
    if (over > 0) wide.push(`${path}: ${over}px`);
  };
  for (const path of PRIVATE_ROUTES) await check(path);
  // A brand page, a request and a connection as the lists link to them.
  for (const list of ['/matches/potentials', '/requests/received', '/connections/connected']) {
    await page.goto(list);
    const link = page.locator('main a[href*="/brand/"], main a[href^="/requests/received/"], main a[href^="/connections/"]').first();
    if (await link.isVisible().catch(() => false)) {
      const href = await link.getAttribute('href');
      if (href) await check(href);
    }
  }
  await page.goto('/matches/potentials');
  await expect(page.locator('.tabs__count').first()).toBeVisible();
  await shot(page, 'matches-tabs-375');
  const loggedOut = await (await browser.newContext({ viewport })).newPage();
  for (const path of PUBLIC_ROUTES) {
    await loggedOut.goto(path);
    await loggedOut.locator('h1').first().waitFor({ state: 'visible' });
    const over = await sideways(loggedOut);
    if (over > 0) wide.push(`(signed out) ${path}: ${over}px`);
  }
  expect(wide, `pages wider than the phone:\n${wide.join('\n')}`).toEqual([]);
});

test('phone: a received request never breaks the brand name inside a word (375 and 320 px)', async ({ browser, a11y }) => {
  test.setTimeout(120_000);
  for (const width of [375, 320]) {
    const page = await pageAt(browser, a11y, DEMO, { width, height: 812 });
    await page.goto('/requests/received');
    const names = page.locator('.brand-identity__name');
    await expect(names.first()).toBeVisible();
    const broken = await names.evaluateAll((els) =>
      els.flatMap((el) => {
        const text = (el.textContent ?? '').trim();
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const words = text.split(/\s+/).length;
        return lines > words ? [`${text}: ${lines} lines for ${words} words`] : [];
      }),
    );
    await shot(page, `requests-received-${width}`);
    expect(broken, `names broken inside a word at ${width}px`).toEqual([]);
    await page.context().close();
  }
});
