import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, linkFromOutbox, signIn, submitSignIn } from './members';

const PHONE = { width: 375, height: 812 };

/** The page is no wider than the phone (nothing scrolls sideways) and `shown` lies wholly on its screen. */
async function expectOnPhoneScreen(page: Page, shown: Locator): Promise<void> {
  await expect(shown).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page scrolls sideways').toBeLessThanOrEqual(
    PHONE.width,
  );
  const box = (await shown.boundingBox())!;
  expect(box.x, 'cut off on the left').toBeGreaterThanOrEqual(0);
  expect(box.y, 'cut off at the top').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'cut off on the right').toBeLessThanOrEqual(PHONE.width);
  expect(box.y + box.height, 'cut off at the bottom').toBeLessThanOrEqual(PHONE.height);
}

test('a new member signs up, confirms through the outbox link, signs in and out', async ({ page }) => {
  const email = `nina.${Date.now()}@example.com`;
  await page.goto('/create-account');
  await expect(page).toHaveTitle(/^Tandem Hub: /);
  await page.getByLabel('Your name').fill('Nina New');
  await page.getByLabel('Brand name').fill("Nina's Teas");
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Tandem-Oats-2026');
  await page.getByRole('button', { name: /create/i }).click();
  await expect(page.getByText(/check your email/i)).toBeVisible();

  // The local outbox shows the email; its link confirms the address.
  await page.goto('/__local/outbox');
  const link = page.locator('article', { hasText: email }).getByRole('link').first();
  const href = await link.getAttribute('href');
  expect(href).toContain('/confirm-email/');
  await page.goto(href!);
  await expect(page.getByText('Thanks, your email address is confirmed.')).toBeVisible();

  await submitSignIn(page, { email, password: 'Tandem-Oats-2026' });
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');

  // First visit: the welcome popup (three steps), then the brand-visibility note.
  const welcome = page.getByRole('dialog', { name: 'Welcome' });
  await expect(welcome).toBeVisible();
  await welcome.getByRole('button', { name: 'Next' }).click();
  await welcome.getByRole('button', { name: 'Next' }).click();
  const recorded = (action: string) =>
    page.waitForResponse((r) => r.url().endsWith(`/api/users/action/${action}`) && r.request().method() === 'POST');
  const welcomed = recorded('welcome');
  await welcome.getByRole('button', { name: 'Finish' }).click();
  const noted = recorded('brand-visibility-pupup');
  await page.getByRole('button', { name: 'Got it' }).click();
  expect((await welcomed).ok() && (await noted).ok()).toBe(true);
  // Then the tips tour, once: skipped, it does not come back on the next page.
  const tour = page.getByRole('dialog', { name: 'Welcome to Tandem' });
  await expect(tour).toBeVisible();
  await tour.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('dialog', { name: 'Tell other brands about yours' })).toBeVisible();
  // The skip is recorded on the server before the reload asks again (a reload in the same
  // instant may be answered first: the record is what this journey checks, not that race).
  const skipped = recorded('instructions');
  await page.getByRole('button', { name: 'Skip tour' }).click();
  expect((await skipped).ok()).toBe(true);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: /Nina/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Nina/ })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: /account menu|NN/i }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
});

test('on a phone, a new member signs up, confirms, and goes through the welcome, the brand note and the tips tour', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const email = `pia.phone.${Date.now()}@example.com`;
  await page.goto('/create-account');
  const create = page.getByRole('button', { name: /create/i });
  await expectOnPhoneScreen(page, page.getByLabel('Your name'));
  await page.getByLabel('Your name').fill('Pia Phone');
  await page.getByLabel('Brand name').fill('Pocket Preserves');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Tandem-Oats-2026');
  await create.scrollIntoViewIfNeeded();
  await expectOnPhoneScreen(page, create);
  await create.click();
  await expect(page.getByText(/check your email/i)).toBeVisible();

  await page.goto(await linkFromOutbox(request, email, 'Confirm your email', '/confirm-email/'));
  await expectOnPhoneScreen(page, page.getByText('Thanks, your email address is confirmed.'));
  await submitSignIn(page, { email, password: 'Tandem-Oats-2026' });
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');

  // The welcome popup: three steps, each on the screen, its button within reach.
  const welcome = page.getByRole('dialog', { name: 'Welcome' });
  for (const [heading, button] of [
    ['Welcome to Tandem, Pia', 'Next'],
    ['How credits work', 'Next'],
    ['Find your first partners', 'Finish'],
  ] as const) {
    await expect(welcome.getByRole('heading', { name: heading })).toBeVisible();
    await expectOnPhoneScreen(page, welcome);
    await expectOnPhoneScreen(page, welcome.getByRole('button', { name: button }));
    await welcome.getByRole('button', { name: button }).click();
  }
  await expect(welcome).toHaveCount(0);

  // The brand-visibility note.
  const note = page.getByRole('dialog', { name: 'Brand names are now visible in Matches' });
  await expectOnPhoneScreen(page, note);
  await expectOnPhoneScreen(page, note.getByRole('button', { name: 'Got it' }));
  await note.getByRole('button', { name: 'Got it' }).click();
  await expect(note).toHaveCount(0);

  // The tips tour, with the phone's menu step: five tips, each wholly on the screen.
  const tips = ['Welcome to Tandem', 'Tell other brands about yours', 'Your menu', 'Collaboration opportunities', 'Credits and your plan'];
  for (const [index, title] of tips.entries()) {
    const tip = page.getByRole('dialog', { name: title });
    await expect(tip.getByText(`Tip ${index + 1} of ${tips.length}`)).toBeVisible();
    await expectOnPhoneScreen(page, tip);
    if (title === 'Your menu') {
      // It points at the menu button: just below it.
      const menu = (await page.getByRole('button', { name: 'Open menu' }).boundingBox())!;
      expect((await tip.boundingBox())!.y).toBeGreaterThanOrEqual(menu.y + menu.height);
    }
    const button = tip.getByRole('button', { name: index === tips.length - 1 ? 'Finish' : 'Next' });
    await expectOnPhoneScreen(page, button);
    await button.click();
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The dashboard, fitting the phone; the popups do not come back.
  const heading = page.getByRole('heading', { level: 1, name: /Pia/ });
  await expectOnPhoneScreen(page, heading);
  await page.reload();
  await expectOnPhoneScreen(page, heading);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a wrong password shows the message and keeps the member on the sign-in page', async ({ page }) => {
  await submitSignIn(page, { email: DEMO.email, password: 'Not-The-Password-1' });
  await expect(page.getByRole('alert')).toHaveText('Wrong email or password');
  await expect(page).toHaveURL(/\/login/);
});

test('a member with two brands switches brand', async ({ page }) => {
  await signIn(page, DEMO);
  const switcher = page.getByLabel(/brand/i).first();
  await expect(switcher).toBeVisible();
  const reloaded = page.waitForRequest((r) => r.url().includes('/api/dashboard'));
  await switcher.selectOption({ label: 'Wild Fern Candles' });
  const request = await reloaded;
  const chosen = await switcher.inputValue();
  expect(chosen).toMatch(/^\d+$/);
  expect(request.headers()['x-brand-id']).toBe(chosen);
  await expect(switcher.locator('option:checked')).toHaveText('Wild Fern Candles');
});

test('an expired access token is refreshed once for requests that fail together', async ({ page }) => {
  await signIn(page, DEMO);
  // The sign-in's own dashboard call must be answered before the token is spoiled: otherwise its
  // 200 (sent with the good token) is the one the wait below catches, and nothing 401s yet.
  await expect(page.getByRole('heading', { level: 1, name: /Dana/ })).toBeVisible();

  // Spoil the access token, as if it had expired, then load a page that makes several calls.
  await page.evaluate(() => {
    const key = 'tandem.session';
    const session = JSON.parse(localStorage.getItem(key)!);
    session.accessToken = 'expired.invalid.token';
    localStorage.setItem(key, JSON.stringify(session));
  });
  const refreshes: string[] = [];
  const unauthorized: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/users/refresh-token')) refreshes.push(r.url());
  });
  page.on('response', (r) => {
    if (r.status() === 401) unauthorized.push(r.url());
  });
  // The retried call: a 200 for the dashboard only after the refresh has been asked for.
  const dashboardLoaded = page.waitForResponse(
    (r) => /\/api\/dashboard(\/\d+)?$/.test(new URL(r.url()).pathname) && r.status() === 200 && refreshes.length === 1,
  );
  await page.reload();
  await dashboardLoaded;
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /Dana/ })).toBeVisible();
  await expect.poll(() => unauthorized.length).toBeGreaterThanOrEqual(2);
  expect(refreshes).toHaveLength(1);
  await expect(page).toHaveURL(/\/$/);
});

test('a signed-in member opening /login lands on the dashboard', async ({ page }) => {
  await signIn(page, DEMO);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('a signed-out member opening /matches is sent to sign in and back', async ({ page }) => {
  await page.goto('/matches');
  await expect(page).toHaveURL(/\/login\/\?redirect=\/matches$/);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/matches$/);
});

test('a reset link works once; opened again it says so and offers a new one', async ({ page }) => {
  const email = `rita.${Date.now()}@example.com`;
  const created = await page.request.post('/api/users/create-account', {
    data: { name: 'Rita Reset', email, password: 'Tandem-Oats-2026', brandName: 'Rita Rolls' },
  });
  expect(created.status()).toBe(201);

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  await page.goto('/__local/outbox');
  const href = await page.locator('article', { hasText: email }).getByRole('link').first().getAttribute('href');
  expect(href).toContain('/reset-password/');

  await page.goto(href!);
  await page.getByLabel('New password', { exact: true }).fill('Fresh-Oats-2027');
  await page.getByLabel('Confirm new password').fill('Fresh-Oats-2027');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible();

  await page.goto(href!);
  await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Request a new link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  await signIn(page, { email, password: 'Fresh-Oats-2027' });
});
