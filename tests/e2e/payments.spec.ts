import { expect, test } from './fixtures';
import { closeFirstVisitPopups, FREE, payOnCheckout, signIn } from './members';

// Runs after matches.spec.ts (files run in name order, one worker): it subscribes free@tandem.local,
// whom matches.spec.ts needs without a plan.

/*
 * Billing journey (issue 12) against the local stack, whose fake Stripe (infra/local/fake_stripe)
 * serves the hosted checkout the browser is sent to: the real Checkout Session, webhook and
 * payment-processing flow, only the base URL and keys differ from production.
 */

const PAYMENT_COMPLETE =
  "Thank you! Your payment has been processed. Now the fun begins - let's find you some incredible brands to partner with.";

test('a member without a plan subscribes monthly through checkout and comes back with 6/6 credits', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, FREE);
  await closeFirstVisitPopups(page);

  await page.goto('/account/subscriptions/');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByText("You don't have a subscription yet.")).toBeVisible();
  // No credits yet: the badge is hidden.
  await expect(page.getByRole('button', { name: /\d+\/\d+ credits/ })).toHaveCount(0);

  // A link once the account has a Stripe customer, else a button that asks POST checkout.
  await page.getByLabel('Buy now: Tandem membership, Monthly').click();

  // The (fake) Stripe hosted checkout: a full page outside the app.
  await payOnCheckout(page);

  // Back on the payment-processing address, then on Billing with the message.
  await page.waitForURL((url) => url.pathname === '/account/subscriptions/', { timeout: 30_000 });
  const done = page.getByRole('dialog', { name: 'Payment complete' });
  await expect(done.getByText(PAYMENT_COMPLETE)).toBeVisible({ timeout: 15_000 });
  await done.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: '6/6 credits' })).toBeVisible();
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();
});
