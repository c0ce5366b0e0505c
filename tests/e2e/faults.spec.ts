import { expect, test } from './fixtures';
import { newMember, signIn, type NewMember } from './members';

/*
 * What a member sees when Stripe cannot be reached (issue 42): the local stack's fake Stripe is
 * switched off for our servers (POST /__local/faults, infra/local/faults.py). Buy now answers at
 * once with the reason and what to do, the button works again, and once Stripe is back the same
 * click goes on to the hosted checkout. A fresh member: no demo user changes.
 */

const UNAVAILABLE = "We couldn't reach our payment provider, so nothing has changed. Please try again in a minute.";
const stamp = Date.now();
const who: NewMember = {
  name: 'Otto Outage',
  email: `otto.outage.${stamp}@example.com`,
  password: 'Tandem-Outage-2026',
  brand: 'Otto Goods',
};

test('with Stripe down, Buy now says so at once and works again once Stripe is back', async ({ page, request }) => {
  test.setTimeout(120_000);
  await newMember(request, who);
  await signIn(page, who);
  await page.goto('/account/subscriptions/');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const buy = page.getByLabel('Buy now: Tandem membership, Monthly');

  const switched = await request.post('/__local/faults', { data: { target: 'stripe', kind: 'down' } });
  expect(switched.status(), await switched.text()).toBe(201);
  try {
    const started = Date.now();
    await buy.click();
    await expect(page.getByText(UNAVAILABLE)).toBeVisible({ timeout: 15_000 });
    expect(Date.now() - started).toBeLessThan(15_000); // an answer, not a page left waiting
    await expect(page).toHaveURL(/\/account\/subscriptions\/$/); // still on Billing, no error page
    await expect(buy).toBeEnabled();
  } finally {
    await request.delete('/__local/faults');
  }

  await buy.click();
  await expect(page.getByRole('table', { name: 'Order summary' })).toBeVisible({ timeout: 30_000 });
});
