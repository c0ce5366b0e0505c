import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, FEATURE, memberPage, payOnCheckout, signIn } from './members';

/*
 * Issue 13's feature-only purchase: feature@tandem.local features their brand for 3 months,
 * accepts the feature terms, pays the 3-month feature product through the local (fake Stripe)
 * hosted checkout, comes back through the payment-processing address to their pending feature;
 * admin@tandem.local approves it on /admin/features; feature@ then has 'Pitches Received' in
 * the menu and Billing in the account menu, and /matches still goes to the dashboard.
 * State: feature@ ends this run with a live feature (3 months). feature-only.spec.ts, which needs
 * them with none, runs before this file (specs run in file order, one worker); no later spec
 * signs in as feature@.
 */
const TITLE = `Trail-ready gift partners ${Date.now() % 100000}`;
const PAID = 'Thanks, your payment has been processed successfully.';

async function accountMenuLinks(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: `Account menu for ${FEATURE.name}` }).click();
  const menu = page.getByRole('menu', { name: `Account menu for ${FEATURE.name}` });
  await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  const labels = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  return labels.map((label) => label.trim());
}

test('a feature-only member buys a 3-month feature at checkout; once approved, Requests and Billing appear', async ({
  page,
  browser,
  a11y,
}) => {
  test.setTimeout(180_000);
  await signIn(page, FEATURE);
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Pitch Area' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Pitches Received' })).toHaveCount(0);
  expect(await accountMenuLinks(page)).not.toContain('Billing');

  // The opportunity, a 3-month term, the feature terms, then the paid product.
  await page.goto('/pitch/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Feature your brand' })).toBeVisible();
  await expect(page.getByText('Your feature is a paid product', { exact: false })).toBeVisible();
  await page.getByLabel('Headline').fill(TITLE);
  await page.getByLabel('What you offer').fill('Our trail kit in 1,500 adventure boxes, and a shared giveaway.');
  await page.getByLabel("What you're looking for").fill('Outdoor snacks, drinks and care brands for hikers.');
  await page.getByLabel('bundles').check();
  await page.getByLabel('Audience').fill('UK hikers, 25-54');
  await page.getByLabel('6 months').check();
  await page.getByLabel('3 months').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const terms = page.getByRole('dialog', { name: 'Feature terms' });
  await expect(terms.getByText('Next you pay for your 3-month feature at checkout.', { exact: false })).toBeVisible();
  await terms.getByLabel('I accept the feature terms').check();
  await terms.getByRole('button', { name: 'Accept and pay' }).click();

  // The (fake) Stripe hosted checkout for the 3-month feature product.
  await page.waitForURL((url) => !url.pathname.startsWith('/pitch'));
  // the 3-month price (£149; 6 months is £249)
  await expect(page.getByRole('table', { name: 'Order summary' }).getByRole('row', { name: 'Pitch Area feature 1 £149.00' })).toBeVisible();
  await payOnCheckout(page);

  // Back through /pitch/{id}/payment-processing/{session} to the feature: paid, pending approval.
  await page.waitForURL((url) => /^\/pitch\/[0-9a-f]{16}\/payment-processing\//.test(url.pathname), { timeout: 30_000 });
  await page.waitForURL((url) => /^\/pitch\/[0-9a-f]{16}$/.test(url.pathname), { timeout: 30_000 });
  const done = page.getByRole('dialog', { name: 'Payment complete' });
  await expect(done.getByText(PAID)).toBeVisible({ timeout: 15_000 });
  await done.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  const mine = page.getByRole('region', { name: 'Your feature' });
  await expect(mine.getByText('Pending approval', { exact: true })).toBeVisible();
  await expect(mine.getByText('We normally approve features within 24 hours and confirm by email.')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Pay for your feature' })).toHaveCount(0);

  // The admin approves it in the console.
  const admin = await memberPage(browser, a11y, ADMIN);
  await admin.goto('/admin/features');
  await expect(admin.getByRole('heading', { level: 1, name: 'Features to approve' })).toBeVisible();
  await admin.getByRole('button', { name: new RegExp(`^Approve\\s?: ${TITLE}$`) }).click();
  await expect(admin.locator('.toast').filter({ hasText: 'Feature approved' })).toBeVisible();
  await admin.context().close();

  // Live: 'Pitches Received' in the menu, Billing in the account menu; Matches still not theirs.
  await page.reload();
  await expect(mine.getByText('Live', { exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Pitches Received' })).toBeVisible();
  expect(await accountMenuLinks(page)).toContain('Billing');
  await menu.getByRole('link', { name: 'Pitches Received' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pitches Received' })).toBeVisible();
  await page.goto('/matches');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');
  await expect(menu.getByRole('link', { name: 'Matches' })).toHaveCount(0);
});
