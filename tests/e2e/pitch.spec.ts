import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  authed,
  badge,
  DEMO,
  linkFromOutbox,
  logIn,
  memberPage,
  signIn,
  signUp,
  skipFirstVisit,
  subscribeMonthly,
  type NewMember,
} from './members';

/**
 * The Pitch Area journey of issue 13, against the local stack: demo@tandem.local features its
 * first brand (3 credits, 6/6 -> 3/6; requests.spec.ts, run later, counts from what is left);
 * admin@tandem.local approves it on /admin/features; it is live on /pitch; a fresh member P
 * (signed up through the API, subscribed monthly through the local checkout) pitches (1 credit,
 * 6/6 -> 5/6); demo@ accepts from the received list (both get contact details) and ends the
 * feature early.
 */

const PASSWORD = 'Tandem-Pitch-2026';
const stamp = Date.now();
const PITCHER: NewMember = {
  name: 'Pip Pitcher',
  email: `pip.${stamp}@example.com`,
  password: PASSWORD,
  brand: `Pip's Candles ${stamp % 10000}`,
};
const TITLE = 'Partners for our winter hamper';

/** A new member: signed up, brand contact filled in, first-visit popups done, subscribed monthly (6 credits). */
async function subscribedMember(request: APIRequestContext, who: NewMember): Promise<void> {
  const member = await signUp(request, who);
  const contact = await request.put(`/api/brands/${member.brandId}`, {
    headers: authed(member.token, member.brandId),
    data: { category: 'food & drink', contact: { name: who.name, email: who.email, phone: '' } },
  });
  expect(contact.ok(), await contact.text()).toBeTruthy();
  await skipFirstVisit(request, member);
  await subscribeMonthly(request, member);
}

test('a brand is featured, approved, pitched to, accepts the pitch and ends its feature early', async ({ page, browser, request, a11y }) => {
  test.setTimeout(240_000);
  await subscribedMember(request, PITCHER);
  // What P sees once connected: the contact email of demo@'s first brand (Oat & Honey).
  const demo = await logIn(request, DEMO);
  const ownBrands = (await (await request.get('/api/brands', { headers: authed(demo.access_token) })).json()).brands;
  const contactEmail: string = ownBrands[0]?.contact?.email || DEMO.email;

  // demo@ features its brand: the form, the cost, the feature terms popup.
  await signIn(page, DEMO);
  await expect(badge(page)).toHaveText('6/6 credits');
  await page.goto('/pitch');
  await expect(page.getByRole('heading', { level: 1, name: 'Pitch Area' })).toBeVisible();
  await page.getByRole('link', { name: 'Feature your brand' }).click();
  await expect(page.getByText('Featuring costs 3 credits.', { exact: false })).toBeVisible();
  await page.getByLabel('Headline').fill(TITLE);
  await page.getByLabel('What you offer').fill('A place in 2,000 winter hampers, and a joint giveaway.');
  await page.getByLabel("What you're looking for").fill('Independent makers of candles, teas or treats.');
  await page.getByLabel('bundles').check();
  await page.getByLabel('giveaways').check();
  await page.getByLabel('Audience').fill('UK food lovers, 25-54');
  await page.getByRole('button', { name: 'Continue' }).click();
  const terms = page.getByRole('dialog', { name: 'Feature terms' });
  await expect(terms.getByText('approved within 24 hours', { exact: false })).toBeVisible();
  await a11y.check(page);
  await terms.getByRole('button', { name: 'Accept and feature (3 credits)' }).click();
  await expect(terms.getByText('Please accept the feature terms to continue')).toBeVisible();
  await terms.getByLabel('I accept the feature terms').check();
  await terms.getByRole('button', { name: 'Accept and feature (3 credits)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText('Pending approval')).toBeVisible();
  await expect(badge(page)).toHaveText('3/6 credits');
  const featurePath = new URL(page.url()).pathname;

  // The admin approves it on /admin/features.
  const admin = await memberPage(browser, a11y, ADMIN);
  await admin.goto('/admin/features');
  await expect(admin.getByRole('heading', { level: 1, name: 'Features to approve' })).toBeVisible();
  await admin.getByRole('button', { name: new RegExp(`^Approve\\s?: ${TITLE}$`) }).click();
  await expect(admin.locator('.toast').filter({ hasText: 'Feature approved' })).toBeVisible();
  await admin.context().close();

  // Live on /pitch, marked as demo@'s own; demo@ was emailed.
  await linkFromOutbox(request, DEMO.email, 'is live in the Pitch Area', '/pitch/jump/');
  await page.goto('/pitch');
  const own = page.getByRole('article').filter({ hasText: TITLE });
  await expect(own.getByText('Your feature', { exact: true })).toBeVisible();

  // P finds it on /pitch and pitches (1 credit).
  const pitcher = await memberPage(browser, a11y, PITCHER);
  await expect(badge(pitcher)).toHaveText('6/6 credits');
  await pitcher.goto('/pitch');
  await pitcher.getByRole('article').filter({ hasText: TITLE }).getByRole('link', { name: /View and pitch/ }).click();
  await expect(pitcher.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await pitcher.getByRole('button', { name: 'Pitch', exact: true }).click();
  const dialog = pitcher.getByRole('dialog', { name: /^Pitch to / });
  await dialog.getByLabel('Your pitch').fill('Our beeswax candles would glow in your hampers. Shall we?');
  await dialog.getByRole('button', { name: 'Send pitch (1 credit)' }).click();
  await expect(pitcher.getByText("You've pitched to this feature")).toBeVisible();
  await expect(badge(pitcher)).toHaveText('5/6 credits');

  // demo@ accepts it from the received list: both see contact details; accepting is free.
  await linkFromOutbox(request, DEMO.email, 'pitched to collaborate', '/requests/received/');
  await page.goto('/requests/received');
  const card = page.getByRole('article').filter({ hasText: 'Our beeswax candles' });
  await expect(card.getByText('A pitch to your feature')).toBeVisible();
  await card.getByRole('button', { name: /^Accept/ }).click();
  await expect(page.locator('.toast').filter({ hasText: "You're connected with" })).toBeVisible();
  await expect(badge(page)).toHaveText('3/6 credits');
  await pitcher.goto('/connections');
  await expect(pitcher.getByText(contactEmail)).toBeVisible();
  await pitcher.context().close();

  // demo@ ends the feature early (confirmed): 'Your feature has ended', gone from /pitch.
  await page.goto(featurePath);
  await page.getByRole('button', { name: 'End feature early' }).click();
  await page.getByRole('dialog', { name: 'End your feature early?' }).getByRole('button', { name: 'End feature' }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Your feature has ended' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Feature your brand again' })).toBeVisible();
  await page.goto('/pitch');
  await expect(page.getByRole('heading', { level: 1, name: 'Pitch Area' })).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: TITLE })).toHaveCount(0);
});
