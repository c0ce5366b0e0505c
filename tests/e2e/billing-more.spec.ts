import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * More billing journeys (issue 12) on the local stack and its fake Stripe's hosted checkout and
 * portal pages. Every journey uses fresh members signed up through the API (confirmation link
 * from the local outbox): no demo user changes, so matches.spec.ts still finds
 * free@tandem.local without a plan and payments.spec.ts can subscribe it.
 */

const PASSWORD = 'Tandem-Billing-2026';
const stamp = Date.now();
const GOOD_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';
const PAYMENT_COMPLETE =
  "Thank you! Your payment has been processed. Now the fun begins - let's find you some incredible brands to partner with.";
const YEARLY_SUCCESS = 'Thanks, your yearly upgrade has been processed successfully...';

interface Member {
  readonly email: string;
  readonly token: string;
  readonly brandId: number;
}

const authed = (token: string, brand?: number) => ({
  Authorization: `Bearer ${token}`,
  ...(brand ? { 'X-Brand-Id': String(brand) } : {}),
});

async function confirmCode(request: APIRequestContext, email: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/__local/outbox')).text();
        const article = html.split('<article>').find((part) => part.includes(email));
        code = article ? (/\/confirm-email\/([A-Za-z0-9_-]+)/.exec(article)?.[1] ?? null) : null;
        return code;
      },
      { message: `confirmation email to ${email}`, timeout: 20_000 },
    )
    .not.toBeNull();
  return code!;
}

/** A fresh member, confirmed, signed in through the API, first-visit popups done. */
async function newMember(request: APIRequestContext, name: string, extraBrands: readonly string[] = []): Promise<Member> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${stamp}@example.com`;
  const created = await request.post('/api/users/create-account', {
    data: { name, email, password: PASSWORD, brandName: `${name} Goods` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const confirmed = await request.post('/api/users/confirm-email', { data: { code: await confirmCode(request, email) } });
  expect(confirmed.ok(), await confirmed.text()).toBeTruthy();
  const login = await request.post('/api/users/login', { data: { email, password: PASSWORD } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const token = ((await login.json()) as { access_token: string }).access_token;
  const dashboard = await (await request.get('/api/dashboard', { headers: authed(token) })).json();
  const brandId = Number(dashboard.dashboard.brandId);
  for (const brand of extraBrands) {
    const made = await request.post('/api/brands', {
      headers: authed(token, brandId),
      data: { name: brand, category: 'food & drink', description: `${brand} makes lovely things.` },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  for (const action of ['users/action/welcome', 'users/action/brand-visibility-pupup', 'users/action/instructions']) {
    await request.post(`/api/${action}`, { headers: authed(token) });
  }
  return { email, token, brandId };
}

async function credits(request: APIRequestContext, member: Member) {
  const answer = await request.get('/api/dashboard', { headers: authed(member.token, member.brandId) });
  expect(answer.ok()).toBeTruthy();
  return (await answer.json()).credits as { available: number; total: number; active: boolean; isYearly: boolean };
}

/** Subscribes monthly through the fake's hosted checkout (the form a browser posts) and waits for 6 credits. */
async function subscribeMonthly(request: APIRequestContext, member: Member) {
  const made = await request.post('/api/checkout', {
    headers: authed(member.token, member.brandId),
    data: { priceId: 'tandem_main_monthly' },
  });
  expect(made.ok(), await made.text()).toBeTruthy();
  const { url } = (await made.json()) as { url: string };
  const paid = await request.post(url, { form: { email: '', name: 'Card Holder', card_number: GOOD_CARD, pay: '1' }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  // The sync grants the credits, then writes the plan: wait for both (a send in between is a 402).
  await expect
    .poll(
      async () => {
        const now = await credits(request, member);
        return [now.available, now.active];
      },
      { timeout: 30_000 },
    )
    .toEqual([6, true]);
}

async function signIn(page: Page, member: Member) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');
}

/** On the fake's hosted checkout: one card, then Pay / Subscribe. */
async function payOnCheckout(page: Page, card: string) {
  await expect(page.getByRole('table', { name: 'Order summary' })).toBeVisible();
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^(Pay|Subscribe)$/ }).click();
}

test('out of credits during a send, a member buys add-on credits from the overlay and the send goes through', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const targets = ['Sprout One', 'Sprout Two', 'Sprout Three', 'Sprout Four', 'Sprout Five', 'Sprout Six', 'Sprout Seven'];
  const partner = await newMember(request, 'Pia Partner', targets);
  const partnerBrands = ((await (await request.get('/api/brands', { headers: authed(partner.token) })).json()).brands as {
    id: number;
    name: string;
  }[]).filter((brand) => targets.includes(brand.name));
  expect(partnerBrands).toHaveLength(7);
  const buyer = await newMember(request, 'Ada Addon');
  await subscribeMonthly(request, buyer);
  // Six requests spend the six monthly credits.
  for (const brand of partnerBrands.slice(0, 6)) {
    const sent = await request.post('/api/requests', {
      headers: authed(buyer.token, buyer.brandId),
      data: { toBrandId: brand.id, message: `Hello ${brand.name}, shall we team up?` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  expect((await credits(request, buyer)).available).toBe(0);

  const last = partnerBrands[6]!;
  await signIn(page, buyer);
  await page.goto(`/matches/brand/${last.id}?request=1`);
  const popup = page.getByRole('dialog', { name: `Connect with ${last.name}` });
  await popup.getByLabel('Your message').fill('A seventh hello: a spring bundle together?');
  await popup.getByRole('button', { name: 'Send request', exact: true }).click();

  // Out of credits: the overlay offers more; the recurring add-on goes to the hosted checkout.
  const overlay = page.getByRole('dialog', { name: 'Buy more to continue' });
  await expect(overlay).toBeVisible();
  await overlay.getByLabel('Buy now: Add-on credits, 3 credits every month').click();
  await payOnCheckout(page, GOOD_CARD);

  // Back on the brand's page with the payment-complete message and 3 credits to spend.
  await page.waitForURL((url) => url.pathname === `/matches/brand/${last.id}`, { timeout: 30_000 });
  const done = page.getByRole('dialog', { name: 'Payment complete' });
  await expect(done.getByText(PAYMENT_COMPLETE)).toBeVisible({ timeout: 20_000 });
  await done.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: '3/9 credits' })).toBeVisible();

  // The send goes on from where it stopped: the popup comes back with the message typed
  // before checkout (kept in the tab, never in the address), ready to send. No retyping.
  await expect(popup).toBeVisible();
  await expect(popup.getByLabel('Your message')).toHaveValue('A seventh hello: a spring bundle together?');
  expect(page.url()).not.toContain('spring');
  await popup.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Request sent' })).toBeVisible();
  await expect(page.getByRole('button', { name: '2/9 credits' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Send request to ${last.name}` })).toBeHidden();
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('tandem.pendingSend.')))).toEqual([]);
});

test('a member cancels in the payment portal and the plan stays valid to the end of the period', async ({ page, request }) => {
  test.setTimeout(150_000);
  const member = await newMember(request, 'Cas Cancel');
  await subscribeMonthly(request, member);
  await signIn(page, member);
  await page.goto('/account/subscriptions/');
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();
  const renews = (await page.getByText(/^It renews on /).textContent())!.replace('It renews on ', '').replace(/\.$/, '');

  await page.getByRole('button', { name: 'Manage subscription' }).click();
  // The fake Stripe's customer portal.
  await expect(page.getByRole('heading', { level: 2, name: 'Current plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Your plan will be cancelled on / })).toBeVisible();
  await page.getByRole('link', { name: /^← Return to / }).click();

  await page.waitForURL((url) => url.pathname === '/account/subscriptions/');
  await expect(page.getByText(`Your subscription is cancelled and stays valid until ${renews}. You can renew it from Manage subscription.`)).toBeVisible({
    timeout: 30_000,
  });
  // Still valid: the credits stay and the plan is not offered again.
  await expect(page.getByRole('status', { name: '6/6 credits' })).toBeVisible();
  await expect(page.getByLabel('Buy now: Tandem membership, Monthly')).toHaveCount(0);
  const after = await credits(request, member);
  expect([after.available, after.active]).toEqual([6, true]);
});

test('a monthly member upgrades to yearly after seeing the saving', async ({ page, request }) => {
  test.setTimeout(150_000);
  const member = await newMember(request, 'Yan Yearly');
  await subscribeMonthly(request, member);
  await signIn(page, member);
  await page.goto('/account/subscriptions/');
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();

  await page.getByRole('button', { name: 'Upgrade to yearly' }).click();
  const confirm = page.getByRole('dialog', { name: 'Upgrade to yearly' });
  await expect(
    confirm.getByText(
      // The catalogue's prices: 12 × £49 - £470 = £118.
      'Pay yearly and save £118 a year: £470 a year instead of 12 × £49. The unused time on your monthly plan is credited against the yearly price.',
    ),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Upgrade to yearly' }).click();

  const result = page.getByRole('dialog', { name: 'Yearly upgrade' });
  await expect(result.getByText(YEARLY_SUCCESS, { exact: true })).toBeVisible({ timeout: 30_000 });
  await result.getByRole('button', { name: 'Close' }).last().click(); // the footer's (the X is also 'Close')
  await expect(page.getByText('You have a yearly subscription.')).toBeVisible({ timeout: 30_000 });
  // No second 6 credits for the same month.
  await expect(page.getByRole('status', { name: '6/6 credits' })).toBeVisible();
  const after = await credits(request, member);
  expect([after.available, after.total, after.isYearly]).toEqual([6, 6, true]);
});

test('a declined card says so clearly and changes nothing', async ({ page, request }) => {
  test.setTimeout(120_000);
  const member = await newMember(request, 'Dee Declined');
  await signIn(page, member);
  await page.goto('/account/subscriptions/');
  await expect(page.getByText("You don't have a subscription yet.")).toBeVisible();

  await page.getByLabel('Buy now: 3-month access, 3 months').click();
  await payOnCheckout(page, DECLINED_CARD);
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  const sessionId = new URL(page.url()).pathname.split('/').pop()!;
  expect(sessionId).toMatch(/^cs_/);

  // Back from checkout: nothing changed on Billing.
  await page.getByRole('link', { name: '← Back' }).click();
  await page.waitForURL((url) => url.pathname.replace(/\/$/, '') === '/account/subscriptions');
  await expect(page.getByText("You don't have a subscription yet.")).toBeVisible();

  // The payment-processing address of that checkout (as the browser's history reopens it) says
  // the payment failed, why, and that nothing changed.
  await page.goto(`/account/subscriptions/payment-processing/${sessionId}`);
  const processing = page.getByRole('dialog', { name: 'Processing your payment' });
  await expect(processing.getByText("Your payment didn't go through")).toBeVisible();
  await expect(processing.getByText('Your card was declined.')).toBeVisible();
  await expect(
    processing.getByText('Your payment failed and nothing changed on your account. Please try again, or use another card.'),
  ).toBeVisible();
  await processing.getByRole('link', { name: 'Go back' }).click();
  await expect(page.getByText("You don't have a subscription yet.")).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Payment complete' })).toHaveCount(0);
  await expect(page.getByRole('status', { name: /credits$/ })).toHaveCount(0);
  const after = await credits(request, member);
  expect([after.available, after.total, after.active]).toEqual([0, 0, false]);
});
