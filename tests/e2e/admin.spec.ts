import { expect, test } from './fixtures';
import { ADMIN, authed, memberPage, newMember, payOnCheckout, signIn, type NewMember } from './members';

/**
 * Pending approval and the admin console (issue 12), against the local stack. Two fresh
 * members (no demo user changes): Piper, whose first plan an admin marks as needing approval,
 * and Rhea, who receives Piper's request. admin@tandem.local requires approval in the console,
 * Piper pays through the (fake) Stripe checkout and sends a request, which is held; the admin
 * approves Piper in the console and Rhea sees the request. Only the admin's audit log and
 * these two members change.
 */

const PASSWORD = 'Tandem-Oats-2026';
const stamp = Date.now();
const PIPER: NewMember = {
  name: 'Piper Pending',
  email: `piper.${stamp}@example.com`,
  password: PASSWORD,
  brand: `Piper Preserves ${stamp}`,
};
const RHEA: NewMember = {
  name: 'Rhea Receiver',
  email: `rhea.${stamp}@example.com`,
  password: PASSWORD,
  brand: `Rhea Ribbons ${stamp}`,
};
const MESSAGE = 'Shall we bundle our preserves with your ribbons for a gift box?';

test('a pending-approval member’s request is held until an admin approves them in the console', async ({ page, browser, request, a11y }) => {
  test.setTimeout(240_000);
  await newMember(request, PIPER);
  const rhea = await newMember(request, RHEA);

  // The admin marks Piper's next plan as needing approval, from the Users screen.
  await signIn(page, ADMIN);
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
  const piperPage = await memberPage(browser, a11y, PIPER);
  await piperPage.goto('/account/subscriptions/');
  await piperPage.getByLabel('Buy now: Tandem membership, Monthly').click(); // a button until the member has a Stripe customer
  await payOnCheckout(piperPage);
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
  const before = await request.get('/api/requests?box=received', { headers: authed(rhea.token, rhea.brandId) });
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
  const rheaPage = await memberPage(browser, a11y, RHEA);
  await rheaPage.goto('/requests/received');
  await expect(rheaPage.getByText(MESSAGE)).toBeVisible();
  await piperPage.goto('/account/subscriptions/');
  await expect(piperPage.getByText('You have a monthly subscription.')).toBeVisible();
  await expect(piperPage.getByText('Waiting for approval', { exact: true })).toHaveCount(0);

  // The audit log names both admin actions.
  await adminMenu.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Approved subscription' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Required approval' }).first()).toBeVisible();
});
