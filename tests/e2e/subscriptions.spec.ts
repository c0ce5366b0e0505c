import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  ADMIN,
  authed,
  badge,
  closeFirstVisitPopups,
  credits,
  DEMO,
  GOOD_CARD,
  logIn,
  newMember,
  payOnCheckout,
  signIn,
  type MemberWithBrands,
} from './members';

/*
 * Every account type tells one story (issue 21): Billing, the credits badge, brand names and a
 * send agree, for a plan bought in Stripe that then buys add-on credits (demo@), gifted credits
 * only, a free trial started through Checkout, an admin's free trial without a card, and a plan
 * awaiting approval. Runs after requests.spec.ts (files run in name order, one worker): demo@
 * buys 3 credits here, and the requests journey counts demo@'s credits out of 6.
 */

const PASSWORD = 'Plan-Story-Bristol-42';

async function adminToken(request: APIRequestContext): Promise<string> {
  return (await logIn(request, ADMIN)).access_token;
}

/** demo@'s two brands (neither hides its name): the brands the new members write to. */
async function demoBrands(request: APIRequestContext): Promise<{ id: number; name: string }[]> {
  const { access_token: token } = await logIn(request, DEMO);
  const answer = await request.get('/api/dashboard', { headers: authed(token) });
  return ((await answer.json()) as { userBrands: { id: number; name: string }[] }).userBrands;
}

/** The member's account id, as the login response gives it (SPEC section 3: `account`). */
async function accountOf(request: APIRequestContext, member: MemberWithBrands): Promise<string> {
  const answer = await request.post('/api/users/login', { data: { email: member.email, password: member.password } });
  const account = ((await answer.json()) as { account?: string }).account;
  expect(account, 'the login response names the account').toBeTruthy();
  return account!;
}

async function billing(page: Page) {
  await page.goto('/account/subscriptions/');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
}

/** The name a brand's page in Matches shows this member, read from its send popup's title. */
async function sendFromBrandPage(page: Page, brandId: number, message: string): Promise<string> {
  await page.goto(`/matches/brand/${brandId}?request=1`);
  const dialog = page.getByRole('dialog', { name: /^Connect with / });
  await expect(dialog).toBeVisible();
  const title = (await dialog.getByRole('heading').first().textContent()) ?? '';
  await dialog.getByLabel('Your message').fill(message);
  await dialog.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.toast').filter({ hasText: 'Request sent' })).toBeVisible();
  return title.replace(/^Connect with /, '');
}

test('demo@ buys 3 add-on credits from Billing and keeps its plan, names and sends', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();
  const before = (await badge(page).textContent()) ?? '';
  const [available, total] = before.match(/\d+/g)!.map(Number);

  await page.getByLabel('Buy now: Extra credits, 3 credits').click();
  await payOnCheckout(page, GOOD_CARD);
  await page.waitForURL((url) => url.pathname === '/account/subscriptions/', { timeout: 30_000 });
  const done = page.getByRole('dialog', { name: 'Payment complete' });
  await expect(done).toBeVisible({ timeout: 15_000 });
  await done.getByRole('button', { name: 'Continue' }).click();

  await expect(badge(page)).toHaveText(`${available + 3}/${total + 3} credits`);
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();
  await expect(page.getByText("You don't have a subscription yet.")).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Manage subscription' })).toBeVisible();
  const { access_token: token } = await logIn(request, DEMO);
  const seen = (await (await request.get('/api/dashboard', { headers: authed(token) })).json()) as {
    showingBrandNames: boolean;
    credits: { canSend: boolean; notAllowedMessage: string | null };
  };
  expect(seen.showingBrandNames).toBe(true);
  expect(seen.credits).toMatchObject({ canSend: true, notAllowedMessage: null });
});

test('an admin gifts 3 credits: the member sends two requests, sees masked names, and nothing renews', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const gia = await newMember(request, {
    name: 'Gia Gift',
    email: 'gia.gift@example.com',
    password: PASSWORD,
    brand: 'Gia Granola',
  });
  const gifted = await request.post('/api/admin/credits/grant', {
    headers: authed(await adminToken(request)),
    data: { email: gia.email, amount: 3, kind: 'gifted', days: 30 },
  });
  expect(gifted.ok(), await gifted.text()).toBeTruthy();

  await signIn(page, gia);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText('You have gifted credits, without a subscription. Gifted credits do not renew.')).toBeVisible();
  await expect(badge(page)).toHaveText('3/3 credits');
  await expect(page.getByText(/new credits|renews on/i)).toHaveCount(0);

  const [oat, fern] = await demoBrands(request);
  expect(await sendFromBrandPage(page, oat.id, 'Granola and oat bites: a breakfast bundle?')).toMatch(/^An? .+ brand$/);
  expect(await sendFromBrandPage(page, fern.id, 'Candles and granola for a cosy-morning giveaway?')).toMatch(/^An? .+ brand$/);
  await expect(badge(page)).toHaveText('1/3 credits');

  await page.goto('/requests/sent');
  const sent = page.getByRole('article');
  await expect(sent).toHaveCount(2);
  await expect(page.getByText(oat.name)).toHaveCount(0); // named as the member saw them: masked
  expect(await credits(request, gia)).toMatchObject({ available: 1, giftedOnly: true, canSend: true, namesShown: false });
});

test('a new member starts the free trial through Checkout: 3 credits, every name, and when it ends', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const tom = await newMember(request, {
    name: 'Tom Trial',
    email: 'tom.trial@example.com',
    password: PASSWORD,
    brand: 'Tom Toffee',
  });
  await signIn(page, tom);
  await closeFirstVisitPopups(page);
  await billing(page);
  const terms = page.getByRole('list', { name: 'Free trial terms' });
  await expect(terms.getByText('Cancel in the payment portal before the trial ends and you pay nothing.')).toBeVisible();
  await page.getByLabel('Start free trial: Tandem membership, 14-day free trial').click();
  await payOnCheckout(page, GOOD_CARD);
  await page.waitForURL((url) => url.pathname === '/account/subscriptions/', { timeout: 30_000 });
  const done = page.getByRole('dialog', { name: 'Payment complete' });
  await expect(done).toBeVisible({ timeout: 15_000 });
  await done.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText("You're on a free trial.")).toBeVisible();
  await expect(badge(page)).toHaveText('3/3 credits');
  await expect(page.getByLabel('Start free trial: Tandem membership, 14-day free trial')).toHaveCount(0); // once per account
  const [oat] = await demoBrands(request);
  expect(await sendFromBrandPage(page, oat.id, 'Toffee and oat bites for a winter hamper?')).toBe(oat.name);
  expect(await credits(request, tom)).toMatchObject({
    trialling: true,
    available: 2,
    namesShown: true,
    plan: { kind: 'trial', source: 'stripe', renews: true },
  });
});

test('an admin grants a free trial without a card, and a plan awaiting approval shows names and holds requests', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await adminToken(request);
  const ana = await newMember(request, {
    name: 'Ana Admin-Trial',
    email: 'ana.trial@example.com',
    password: PASSWORD,
    brand: 'Ana Apothecary',
  });
  const granted = await request.post(`/api/admin/accounts/${await accountOf(request, ana)}/grant`, {
    headers: authed(admin),
    data: { kind: 'trial' },
  });
  expect(granted.ok(), await granted.text()).toBeTruthy();
  await signIn(page, ana);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText("You're on a free trial.")).toBeVisible();
  await expect(badge(page)).toHaveText('3/3 credits');
  await expect(page.getByLabel('Buy now: Tandem membership, Monthly')).toBeVisible(); // buying converts it

  const pia = await newMember(request, {
    name: 'Pia Pending',
    email: 'pia.pending@example.com',
    password: PASSWORD,
    brand: 'Pia Pottery',
  });
  const required = await request.post(`/api/admin/accounts/${await accountOf(request, pia)}/require-approval`, {
    headers: authed(admin),
  });
  expect(required.ok(), await required.text()).toBeTruthy();
  const made = await request.post('/api/checkout', {
    headers: authed(pia.token, pia.brandId),
    data: { priceId: 'tandem_main_monthly' },
  });
  const { url } = (await made.json()) as { url: string };
  const paid = await request.post(url, {
    form: { email: pia.email, name: pia.name, card_number: GOOD_CARD, pay: '1' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  await expect
    .poll(async () => (await credits(request, pia)).pendingApproval, { timeout: 30_000 })
    .toBe(true);

  await page.context().clearCookies();
  await page.goto('/login');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, pia);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText(/Your subscription is waiting for approval/)).toBeVisible();
  await expect(page.getByText('You need to buy a subscription to continue')).toHaveCount(0);
  await expect(page.getByLabel('Buy now: Tandem membership, Monthly')).toHaveCount(0); // never a second plan
  const [, fern] = await demoBrands(request);
  expect(await sendFromBrandPage(page, fern.id, 'Pottery and candles: a table-setting collab?')).toBe(fern.name);
  const held = await request.get('/api/requests?box=sent', { headers: authed(pia.token, pia.brandId) });
  const items = ((await held.json()) as { items: { status: string; toBrand: { name: string } }[] }).items;
  expect(items.map((r) => [r.status, r.toBrand.name])).toEqual([['awaiting_approval', fern.name]]);
});

/** Buys `priceId` for the member through POST checkout and the fake's hosted form (a good card). */
async function buy(request: APIRequestContext, member: MemberWithBrands, priceId: string): Promise<void> {
  const made = await request.post('/api/checkout', { headers: authed(member.token, member.brandId), data: { priceId } });
  expect(made.ok(), await made.text()).toBeTruthy();
  const { url } = (await made.json()) as { url: string };
  const paid = await request.post(url, {
    form: { email: member.email, name: member.name, card_number: GOOD_CARD, pay: '1' },
    maxRedirects: 0,
  });
  expect(paid.status(), await paid.text()).toBe(303);
}

test('a yearly plan renews on its yearly date, and a 3-month access ends and says so', async ({ page, request }) => {
  test.setTimeout(180_000);
  const yara = await newMember(request, { name: 'Yara Yearly', email: 'yara.yearly@example.com', password: PASSWORD, brand: 'Yara Yarns' });
  await buy(request, yara, 'tandem_main_yearly');
  await expect.poll(async () => (await credits(request, yara)).isYearly, { timeout: 30_000 }).toBe(true);
  const yearly = await credits(request, yara);
  await signIn(page, yara);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText('You have a yearly subscription.')).toBeVisible();
  const renews = page.getByText(/^It renews on /);
  await expect(renews).toBeVisible();
  const next = page.getByText(/^Your next 6 credits arrive on /);
  await expect(next).toBeVisible();
  expect(await renews.textContent()).not.toContain((await next.textContent())!.replace('Your next 6 credits arrive on ', '').replace('.', ''));
  expect(yearly.plan).toMatchObject({ kind: 'yearly', renews: true });
  await expect(page.getByRole('button', { name: 'Manage subscription' })).toBeVisible();

  const fay = await newMember(request, { name: 'Fay Fixed', email: 'fay.fixed@example.com', password: PASSWORD, brand: 'Fay Fudge' });
  await buy(request, fay, 'tandem_access_3_months');
  await expect.poll(async () => (await credits(request, fay)).active, { timeout: 30_000 }).toBe(true);
  await page.context().clearCookies();
  await page.goto('/login');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, fay);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText('You have fixed-term access. It does not renew.')).toBeVisible();
  await expect(page.getByText(/^Your access ends on /)).toBeVisible();
  await expect(page.getByText(/renews on/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Manage subscription' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Payments and invoices' })).toBeVisible();
  await expect(badge(page)).toHaveText('6/6 credits');
});

test('a plan awaiting approval is approved (its held request goes out) or refused (nothing is left to pay for)', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await adminToken(request);
  const [oat] = await demoBrands(request);
  const members: MemberWithBrands[] = [];
  for (const [name, email, brand] of [
    ['Abi Approved', 'abi.approved@example.com', 'Abi Aprons'],
    ['Rex Refused', 'rex.refused@example.com', 'Rex Rugs'],
  ] as const) {
    const member = await newMember(request, { name, email, password: PASSWORD, brand });
    const account = await accountOf(request, member);
    expect((await request.post(`/api/admin/accounts/${account}/require-approval`, { headers: authed(admin) })).ok()).toBeTruthy();
    await buy(request, member, 'tandem_main_monthly');
    await expect.poll(async () => (await credits(request, member)).pendingApproval, { timeout: 30_000 }).toBe(true);
    const sent = await request.post('/api/requests', {
      headers: authed(member.token, member.brandId),
      data: { toBrandId: oat.id, message: `${brand} and oat bites: a bundle?` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    members.push(member);
  }
  const [abi, rex] = members;
  const approved = await request.post(`/api/admin/approvals/${await accountOf(request, abi)}/approve`, { headers: authed(admin) });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  const refused = await request.post(`/api/admin/approvals/${await accountOf(request, rex)}/refuse`, {
    headers: authed(admin),
    data: { reason: 'We only take rug makers with a studio for now.' },
  });
  expect(refused.ok(), await refused.text()).toBeTruthy();

  await signIn(page, abi);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText('You have a monthly subscription.')).toBeVisible();
  await expect(badge(page)).toHaveText('5/6 credits');
  const out = await request.get('/api/requests?box=sent', { headers: authed(abi.token, abi.brandId) });
  expect(((await out.json()) as { items: { status: string }[] }).items.map((r) => r.status)).toEqual(['pending']);

  await expect
    .poll(async () => (await credits(request, rex)).hasSubscription, { timeout: 30_000 })
    .toBe(false);
  await page.context().clearCookies();
  await page.goto('/login');
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, rex);
  await closeFirstVisitPopups(page);
  await billing(page);
  await expect(page.getByText(/waiting for approval/)).toHaveCount(0);
  await expect(page.getByText("You don't have a subscription yet.")).toBeVisible();
  expect(await credits(request, rex)).toMatchObject({ available: 0, canSend: false, namesShown: false });
});
