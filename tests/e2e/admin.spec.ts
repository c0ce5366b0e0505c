import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test, type A11yWatcher } from './fixtures';

/**
 * Pending approval and the admin console (issue 12), against the local stack. Two fresh
 * members (no demo user changes): Piper, whose first plan an admin marks as needing approval,
 * and Rhea, who receives Piper's request. admin@tandem.local requires approval in the console,
 * Piper pays through the (fake) Stripe checkout and sends a request, which is held; the admin
 * approves Piper in the console and Rhea sees the request. Only the admin's audit log and
 * these two members change.
 */

const ADMIN = { email: 'admin@tandem.local', password: 'Kestrel-Quay-Admin-4' };
const PASSWORD = 'Tandem-Oats-2026';
const stamp = Date.now();
const PIPER = { name: 'Piper Pending', email: `piper.${stamp}@example.com`, brand: `Piper Preserves ${stamp}` };
const RHEA = { name: 'Rhea Receiver', email: `rhea.${stamp}@example.com`, brand: `Rhea Ribbons ${stamp}` };
const MESSAGE = 'Shall we bundle our preserves with your ribbons for a gift box?';

function authed(token: string, brand = 'default') {
  return { Authorization: `Bearer ${token}`, 'X-Brand-Id': brand };
}

async function outboxLink(request: APIRequestContext, to: string, part: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/__local/outbox')).text();
        const article = html.split('<article>').find((a) => a.includes(`To: ${to}</p>`) && a.includes(part));
        link = article ? [...article.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!).find((h) => h.includes(part)) : undefined;
        return link ?? null;
      },
      { message: `email to ${to} with a ${part} link`, timeout: 20_000 },
    )
    .not.toBeNull();
  return new URL(link!.replace(/&amp;/g, '&')).pathname;
}

/** A member signed up and confirmed through the API, first-visit popups done. */
async function signUp(request: APIRequestContext, who: typeof PIPER): Promise<{ token: string; brandId: number }> {
  const created = await request.post('/api/users/create-account', {
    data: { name: who.name, email: who.email, password: PASSWORD, brandName: who.brand },
  });
  expect(created.status(), await created.text()).toBe(201);
  const confirm = await outboxLink(request, who.email, '/confirm-email/');
  const confirmed = await request.post('/api/users/confirm-email', { data: { code: confirm.replace('/confirm-email/', '') } });
  expect(confirmed.ok(), await confirmed.text()).toBeTruthy();
  const login = await request.post('/api/users/login', { data: { email: who.email, password: PASSWORD } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  for (const action of ['users/action/welcome', 'users/action/brand-visibility-pupup', 'users/action/instructions']) {
    await request.post(`/api/${action}`, { headers: authed(token) });
  }
  const dashboard = (await (await request.get('/api/dashboard', { headers: authed(token) })).json()) as {
    dashboard: { brandId: number };
  };
  return { token, brandId: Number(dashboard.dashboard.brandId) };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');
}

async function memberPage(browser: Browser, a11y: A11yWatcher, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  a11y.watch(page);
  await signIn(page, email, password);
  return page;
}

test('a pending-approval member’s request is held until an admin approves them in the console', async ({ page, browser, request, a11y }) => {
  test.setTimeout(240_000);
  const piper = await signUp(request, PIPER);
  const rhea = await signUp(request, RHEA);

  // The admin marks Piper's next plan as needing approval, from the Users screen.
  await signIn(page, ADMIN.email, ADMIN.password);
  const adminMenu = page.getByRole('navigation', { name: 'Admin' });
  await adminMenu.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(PIPER.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row', { name: new RegExp(PIPER.email.replace(/\./g, '\\.')) });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Require approval' }).click();
  await page.getByRole('dialog', { name: 'Require approval?' }).getByRole('button', { name: 'Require approval' }).click();
  await expect(row.getByText('Needs approval')).toBeVisible();

  // Piper subscribes through the hosted checkout and is told the plan waits for approval.
  const piperPage = await memberPage(browser, a11y, PIPER.email, PASSWORD);
  await piperPage.goto('/account/subscriptions/');
  await piperPage.getByLabel('Buy now: Tandem membership, Monthly').click(); // a button until the member has a Stripe customer
  await piperPage.waitForURL((url) => !url.pathname.startsWith('/account/'));
  await piperPage.getByLabel(/Card number/i).fill('4242 4242 4242 4242');
  const expiry = piperPage.getByLabel(/Expir/i);
  if (await expiry.count()) await expiry.fill('12 / 34');
  const cvc = piperPage.getByLabel(/CVC/i);
  if (await cvc.count()) await cvc.fill('123');
  await piperPage.getByRole('button', { name: /^(Pay|Subscribe)$/ }).click();
  await piperPage.waitForURL((url) => url.pathname === '/account/subscriptions/', { timeout: 30_000 });
  const done = piperPage.getByRole('dialog', { name: 'Payment complete' });
  await done.getByRole('button', { name: 'Continue' }).click();
  await expect(piperPage.getByText('Waiting for approval', { exact: true })).toBeVisible();

  // Piper's request to Rhea is held: Rhea has nothing yet.
  await piperPage.goto(`/matches/brand/${rhea.brandId}?request=1`);
  const dialog = piperPage.getByRole('dialog', { name: /^Connect with / });
  await dialog.getByLabel('Your message').fill(MESSAGE);
  await dialog.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(piperPage.locator('.toast').filter({ hasText: 'once your subscription is approved' })).toBeVisible();
  await piperPage.goto('/requests/sent');
  await expect(piperPage.getByText('Sends once your subscription is approved')).toBeVisible();
  const before = await request.get('/api/requests?box=received', { headers: authed(rhea.token, String(rhea.brandId)) });
  expect(((await before.json()) as { items: unknown[] }).items).toEqual([]);

  // The admin approves Piper in the approval queue.
  await adminMenu.getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible();
  await page.getByRole('button', { name: `Approve ${PIPER.email}` }).click();
  const confirmDialog = page.getByRole('dialog', { name: 'Approve this subscription?' });
  await confirmDialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('.toast').filter({ hasText: '1 held request was sent' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Approve ${PIPER.email}` })).toHaveCount(0);

  // The request went out: Rhea sees it, and Piper's plan is active.
  const rheaPage = await memberPage(browser, a11y, RHEA.email, PASSWORD);
  await rheaPage.goto('/requests/received');
  await expect(rheaPage.getByText(MESSAGE)).toBeVisible();
  await piperPage.goto('/account/subscriptions/');
  await expect(piperPage.getByText('You have a monthly subscription.')).toBeVisible();
  await expect(piperPage.getByText('Waiting for approval', { exact: true })).toHaveCount(0);

  // The audit log names both admin actions.
  await adminMenu.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Approved subscription' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Required approval' }).first()).toBeVisible();
  void piper;
});
