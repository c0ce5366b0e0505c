import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { authed, badge, DEMO, linkFromOutbox, logIn, memberPage, newMember, signIn, type NewMember } from './members';

/**
 * The connection-request journey of issue 5, against the local stack:
 * brand A (the demo member, subscribed with 6 credits) asks three brands of a new
 * member B; B accepts one in the app, declines one through the email's quick-action
 * link (opening it changes nothing; the page's button declines; A's credit comes back),
 * A cancels the third; the Declines tabs list the right ones.
 */

const stamp = Date.now();
const BRANDS_B = ['Brightside Bakery', 'Brightside Teas', 'Brightside Socks'] as const;
/** Member B: three brands, the first made at sign-up. */
const MEMBER_B: NewMember = {
  name: 'Bea Partner',
  email: `bea.${stamp}@example.com`,
  password: 'Tandem-Oats-2026',
  brand: BRANDS_B[0],
};
const MESSAGES = {
  accepted: 'Shall we bundle your bread with our oat snacks for a spring giveaway?',
  declined: 'Fancy a tea and oat biscuits newsletter swap?',
  cancelled: 'Cosy socks and warm oats: a winter bundle?',
};

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A sends a request from the brand's page in Matches (the popup opens from ?request=1). */
async function sendRequest(page: Page, brandId: number, message: string) {
  await page.goto(`/matches/brand/${brandId}?request=1`);
  const dialog = page.getByRole('dialog', { name: /^Connect with / });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your message').fill(message);
  await dialog.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(dialog).toBeHidden();
  const toast = page.locator('.toast').filter({ hasText: 'Request sent' });
  await expect(toast).toBeVisible();
  // The moment credits change: the toast leaves the header's controls in sight.
  const toastBox = (await toast.boundingBox())!;
  const controls = [badge(page), page.getByLabel('Brand', { exact: true }), page.getByRole('button', { name: /^Account menu for / })];
  for (const control of controls) {
    if (!(await control.isVisible())) continue;
    const box = (await control.boundingBox())!;
    expect(overlaps(toastBox, box), 'a toast covers a header control').toBe(false);
  }
}

/**
 * At 375 px wide: contact addresses wrap only at their natural points (before '@',
 * after dots), the 'Connected' label sits top right of each card, and the footer's
 * links are tap targets at least 44 px tall.
 */
async function checkNarrowConnections(page: Page) {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/connections');
  const cards = page.getByRole('list', { name: 'Connected brands' }).getByRole('article');
  await expect(cards.first()).toBeVisible();
  for (const card of await cards.all()) {
    const email = card.getByRole('region', { name: 'Contact details' }).locator('a[href^="mailto:"]');
    if ((await email.count()) > 0) {
      // Each piece between break points stays on one line.
      const split = await email.evaluate((link) =>
        [...link.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .some((node) => {
            const range = document.createRange();
            range.selectNodeContents(node);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
          }),
      );
      expect(split, 'an email address broke mid-word').toBe(false);
    }
    const head = (await card.locator('.request-card__head').boundingBox())!;
    const chip = (await card.getByText('Connected', { exact: true }).boundingBox())!;
    expect(Math.abs(chip.x + chip.width - (head.x + head.width))).toBeLessThanOrEqual(1);
    expect(Math.abs(chip.y - head.y)).toBeLessThanOrEqual(1);
  }
  for (const link of await page.getByRole('navigation', { name: 'Footer' }).getByRole('link').all()) {
    expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('a request is sent, accepted, declined by email, cancelled, and the credits add up', async ({
  page,
  browser,
  request,
  a11y,
}) => {
  test.setTimeout(120_000);
  const demo = await logIn(request, DEMO);
  const credits = (await (await request.get('/api/dashboard', { headers: authed(demo.access_token) })).json())
    .credits;
  // The seed gives demo@ 6 of 6; pitch.spec.ts (run before) features a brand with 3 of them.
  expect(credits, 'demo@tandem.local needs an active subscription and 2 credits to spare').toMatchObject({
    total: 6,
    hasSubscription: true,
  });
  const start: number = credits.available;
  expect(start).toBeGreaterThanOrEqual(2);
  const left = (n: number) => `${n}/6 credits`;

  // What B should see once connected: the contact email of A's selected (first) brand, or A's own.
  const ownBrands = (await (await request.get('/api/brands', { headers: authed(demo.access_token) })).json()).brands;
  const contactEmail: string = ownBrands[0]?.contact?.email || DEMO.email;

  const memberB = await newMember(request, MEMBER_B, BRANDS_B.slice(1));
  const [acceptId, declineId, cancelId] = memberB.brandIds as [number, number, number];

  // A sends the first request: one credit held.
  await signIn(page, DEMO);
  await expect(badge(page)).toHaveText(left(start));
  await sendRequest(page, acceptId, MESSAGES.accepted);
  await expect(badge(page)).toHaveText(left(start - 1));
  await page.goto('/requests/sent');
  const sentCard = page.getByRole('article').filter({ hasText: MESSAGES.accepted });
  await expect(sentCard.getByText('Awaiting reply')).toBeVisible();

  // B accepts in the app and sees A's contact details.
  const pageB = await memberPage(browser, a11y, MEMBER_B);
  await expect(pageB.getByRole('link', { name: 'Requests (1 new)' })).toHaveAttribute('href', '/requests/received');
  await pageB.getByRole('link', { name: 'Requests (1 new)' }).click();
  const received = pageB.getByRole('article').filter({ hasText: MESSAGES.accepted });
  await received.getByRole('button', { name: /^Accept/ }).click();
  const contact = received.getByRole('region', { name: 'Contact details' });
  await expect(contact.getByRole('link', { name: contactEmail })).toHaveAttribute('href', `mailto:${contactEmail}`);
  await expect(received.getByText('Connected', { exact: true })).toBeVisible();
  await pageB.goto('/connections');
  await expect(pageB.getByRole('heading', { name: 'Oat & Honey' })).toBeVisible();

  // A sees the connection with B's first brand, also on a phone.
  await page.goto('/connections');
  await expect(page.getByRole('heading', { name: BRANDS_B[0] })).toBeVisible();
  await checkNarrowConnections(page);
  await checkNarrowConnections(pageB);

  // A asks the second brand (two held); B declines it from the email without signing in: the credit comes back.
  await sendRequest(page, declineId, MESSAGES.declined);
  await expect(badge(page)).toHaveText(left(start - 2));
  const declineLink = await linkFromOutbox(request, MEMBER_B.email, BRANDS_B[1], '/quick-action/decline/');
  const visitor = await (await browser.newContext()).newPage();
  a11y.watch(visitor);
  await visitor.goto(declineLink);
  // Opening the link only shows the request (mail scanners open links): the click declines it.
  await expect(visitor.getByRole('heading', { level: 1, name: 'Decline this request?' })).toBeVisible();
  await expect(visitor.getByText(MESSAGES.declined)).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign in instead' })).toBeVisible();
  await page.reload();
  await expect(badge(page)).toHaveText(left(start - 2));
  await visitor.getByRole('button', { name: 'Decline request' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: /^You declined .*'s request$/ })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Sign in to Tandem' })).toBeVisible();
  // The link works once.
  await visitor.reload();
  await expect(visitor.getByRole('heading', { level: 1, name: "This link can't be used" })).toBeVisible();
  await page.reload();
  await expect(badge(page)).toHaveText(left(start - 1));

  // A asks the third brand (two held) and cancels: one held again.
  await sendRequest(page, cancelId, MESSAGES.cancelled);
  await expect(badge(page)).toHaveText(left(start - 2));
  await page.goto('/requests/sent');
  const toCancel = page.getByRole('article').filter({ hasText: MESSAGES.cancelled });
  await toCancel.getByRole('button', { name: /^Cancel request/ }).click();
  await page.getByRole('dialog', { name: 'Cancel this request?' }).getByRole('button', { name: 'Cancel request' }).click();
  await expect(toCancel.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(badge(page)).toHaveText(left(start - 1));

  // Declines: A's declined request is under "Declined by others", none under "Declined by you".
  await page.goto('/declines');
  const outList = page.getByRole('list', { name: 'Declined by others' });
  await expect(outList.getByRole('article')).toHaveCount(1);
  await expect(outList.getByRole('heading', { name: BRANDS_B[1] })).toBeVisible();
  await expect(outList.getByText(MESSAGES.declined)).toBeVisible();
  await page.getByRole('link', { name: 'Declined by you' }).click();
  await expect(page.getByRole('heading', { name: "You haven't declined any requests" })).toBeVisible();

  // B, as the brand that declined, finds it under "Declined by you" for that brand.
  await pageB.goto(`/declines/in/${declineId}`);
  const inList = pageB.getByRole('list', { name: 'Declined by you' });
  await expect(inList.getByText(MESSAGES.declined)).toBeVisible();
  await expect(inList.getByRole('article')).toHaveCount(1);
});

test('a used or forged quick-action link shows a clear error and a way to sign in', async ({ page }) => {
  await page.goto('/quick-action/accept/1/2/not-a-real-token');
  await expect(page.getByRole('heading', { level: 1, name: "This link can't be used" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to reply' })).toHaveAttribute(
    'href',
    '/login/?redirect=/requests/received',
  );
  await expect(page.getByRole('contentinfo')).toBeVisible();
});
