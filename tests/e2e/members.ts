import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { expect, type A11yWatcher } from './fixtures';

/**
 * The members the journeys act as, and the steps every journey shares: signing up through the
 * API (confirmed through the local outbox), signing in in a browser, paying on the local fake
 * Stripe's hosted checkout, reading credits. One version of each, used by every spec.
 */

/** What a member signs in with. */
export interface Login {
  readonly email: string;
  readonly password: string;
}

// The demo users of the local seed (infra/local/seed.py, DEMO_LOGINS): each has done the
// first-visit popups and the tips tour.

/** Dana Demo: two brands (Oat & Honey first), an active subscription with 6 of 6 credits. */
export const DEMO: Login = { email: 'demo@tandem.local', password: 'Oat-Honey-Bristol-26' };
/** The Tandem admin. */
export const ADMIN: Login = { email: 'admin@tandem.local', password: 'Kestrel-Quay-Admin-4' };
/** A feature-only account (buys Pitch Area features only). */
export const FEATURE = { email: 'feature@tandem.local', password: 'Northwind-Trail-58', name: 'Fin Feature' } as const;
/** A member without a subscription (payments.spec.ts subscribes them, after matches.spec.ts). */
export const FREE: Login = { email: 'free@tandem.local', password: 'Pebble-Paper-Leeds-9' };
/** Connected with PARTNER, and with nobody else. */
export const MAKER = { email: 'maker@tandem.local', password: 'Kiln-Clay-Margate-31', brand: 'Kiln & Clay Studio' } as const;
/** Connected with MAKER, and with nobody else. */
export const PARTNER = { email: 'partner@tandem.local', password: 'Sea-Salt-Whitby-72', brand: 'Sea Salt Soap Co' } as const;

/** Test cards of the local fake Stripe. */
export const GOOD_CARD = '4242 4242 4242 4242';
export const DECLINED_CARD = '4000 0000 0000 0002';

/** A member to sign up: their name, email, password and first brand's name. */
export interface NewMember extends Login {
  readonly name: string;
  readonly brand: string;
}

/** A signed-up member: their access token and the id of their first brand. */
export interface Member extends NewMember {
  readonly token: string;
  readonly brandId: number;
}

/** The tokens `POST users/login` answers. */
export interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
}

/** What the dashboard says of the selected brand's credits (SPEC section 3). */
export interface Credits {
  readonly available: number;
  readonly total: number;
  readonly active: boolean;
  readonly hasSubscription: boolean;
  readonly isYearly: boolean;
  readonly pendingApproval: boolean;
  readonly trialling: boolean;
  readonly giftedOnly: boolean;
  readonly canSend: boolean;
  readonly namesShown: boolean;
  readonly plan: { readonly kind: string | null; readonly source: string | null; readonly renews: boolean };
}

/**
 * Headers for an API call as the member with this access token. With `brand`, the call acts as
 * that brand (X-Brand-Id); without, no X-Brand-Id is sent and the API uses the account's first brand.
 */
export function authed(token: string, brand?: number | string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, ...(brand === undefined ? {} : { 'X-Brand-Id': String(brand) }) };
}

/** One email in the local outbox. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  /** Every link in the body, in order, as absolute addresses. */
  readonly links: readonly string[];
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The local outbox (/__local/outbox, infra/local/outbox.py), newest email first. */
export async function outbox(request: APIRequestContext): Promise<Mail[]> {
  const html = await (await request.get('/__local/outbox')).text();
  return html
    .split('<article>')
    .slice(1)
    .map((article) => ({
      subject: unescape(/<h2>(.*?)<\/h2>/s.exec(article)?.[1] ?? ''),
      to: unescape(/To: (.*?)<\/p>/s.exec(article)?.[1] ?? ''),
      links: [...article.matchAll(/<a href="([^"]+)"/g)].map((match) => unescape(match[1]!)),
    }));
}

/**
 * Waits for an email to `to` whose subject contains `subject` (emails are queued) and returns
 * the path of its first link containing `part`.
 */
export async function linkFromOutbox(request: APIRequestContext, to: string, subject: string, part: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await outbox(request)).find((m) => m.to === to && m.subject.includes(subject));
        link = mail?.links.find((href) => href.includes(part));
        return link ?? null;
      },
      { message: `email to ${to} about "${subject}" with a ${part} link`, timeout: 20_000 },
    )
    .not.toBeNull();
  return new URL(link!).pathname;
}

/** Signs in through the API. */
export async function logIn(request: APIRequestContext, who: Login): Promise<Tokens> {
  const response = await request.post('/api/users/login', { data: { email: who.email, password: who.password } });
  expect(response.ok(), await response.text()).toBeTruthy();
  return (await response.json()) as Tokens;
}

/**
 * Signs a new member up through the API, confirms their address with the link the local outbox
 * shows and signs them in. Their first-visit popups are still to come (`skipFirstVisit`).
 */
export async function signUp(request: APIRequestContext, who: NewMember): Promise<Member> {
  const created = await request.post('/api/users/create-account', {
    data: { name: who.name, email: who.email, password: who.password, brandName: who.brand },
  });
  expect(created.status(), await created.text()).toBe(201);
  const confirmPath = await linkFromOutbox(request, who.email, 'Confirm your email', '/confirm-email/');
  const confirmed = await request.post('/api/users/confirm-email', {
    data: { code: confirmPath.replace('/confirm-email/', '') },
  });
  expect(confirmed.ok(), await confirmed.text()).toBeTruthy();
  const { access_token: token } = await logIn(request, who);
  const dashboard = await request.get('/api/dashboard', { headers: authed(token) });
  expect(dashboard.ok(), await dashboard.text()).toBeTruthy();
  const brandId = Number(((await dashboard.json()) as { dashboard: { brandId: number } }).dashboard.brandId);
  return { ...who, token, brandId };
}

/** Adds brands to the member's account (food & drink, with a description); answers their ids. */
export async function addBrands(request: APIRequestContext, member: Member, names: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const made = await request.post('/api/brands', {
      headers: authed(member.token, member.brandId),
      data: { name, category: 'food & drink', description: `${name} makes lovely things.` },
    });
    expect(made.status(), await made.text()).toBe(201);
    ids.push(Number(((await made.json()) as { brand: { id: number } }).brand.id));
  }
  return ids;
}

/** Records the first-visit popups (welcome, brand visibility, tips tour) as done, as the app does. */
export async function skipFirstVisit(request: APIRequestContext, member: Member): Promise<void> {
  for (const action of ['users/action/welcome', 'users/action/brand-visibility-pupup', 'users/action/instructions']) {
    const done = await request.post(`/api/${action}`, { headers: authed(member.token) });
    expect(done.ok(), `${action}: ${await done.text()}`).toBeTruthy();
  }
}

/** A member signed up with every brand of theirs, ids in order (their first brand's first). */
export interface MemberWithBrands extends Member {
  readonly brandIds: readonly number[];
}

/**
 * A fresh member ready to use the app, in the order a member would get there: signed up and
 * signed in (`signUp`), `extraBrands` added after their first, then the first-visit popups done.
 */
export async function newMember(
  request: APIRequestContext,
  who: NewMember,
  extraBrands: readonly string[] = [],
): Promise<MemberWithBrands> {
  const member = await signUp(request, who);
  const added = await addBrands(request, member, extraBrands);
  await skipFirstVisit(request, member);
  return { ...member, brandIds: [member.brandId, ...added] };
}

/** The selected brand's credits, as the dashboard answers them. */
export async function credits(request: APIRequestContext, member: Member): Promise<Credits> {
  const answer = await request.get('/api/dashboard', { headers: authed(member.token, member.brandId) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  return ((await answer.json()) as { credits: Credits }).credits;
}

/**
 * Subscribes the member monthly: `POST checkout {priceId}`, then the local fake Stripe's hosted
 * checkout form as a browser posts it, with a good card. Waits for the webhooks' work: 6 credits
 * and the plan active (the sync grants the credits, then writes the plan; a send before the plan
 * is written is refused with "You need to buy a subscription to continue.").
 */
export async function subscribeMonthly(
  request: APIRequestContext,
  member: Member,
  beforePaying?: (fakeStripe: string) => Promise<void>,
): Promise<void> {
  const made = await request.post('/api/checkout', {
    headers: authed(member.token, member.brandId),
    data: { priceId: 'tandem_main_monthly' },
  });
  expect(made.ok(), await made.text()).toBeTruthy();
  const { url } = (await made.json()) as { url: string };
  await beforePaying?.(new URL(url).origin); // the fake Stripe's address, to steer its webhooks
  const paid = await request.post(url, {
    form: { email: member.email, name: member.name, card_number: GOOD_CARD, pay: '1' },
    maxRedirects: 0,
  });
  expect(paid.status(), await paid.text()).toBe(303);
  await expect
    .poll(
      async () => {
        const { available, active } = await credits(request, member);
        return { available, active };
      },
      { message: 'the monthly plan with 6 credits', timeout: 30_000 },
    )
    .toEqual({ available: 6, active: true });
}

/** On the local fake Stripe's hosted checkout page: types the card and presses Pay / Subscribe. */
export async function payOnCheckout(page: Page, card: string = GOOD_CARD): Promise<void> {
  await expect(page.getByRole('table', { name: 'Order summary' })).toBeVisible();
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^(Pay|Subscribe)$/ }).click();
}

/** Fills in and sends the sign-in form; does not wait for what follows. */
export async function submitSignIn(page: Page, who: Login): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in in the browser and waits for the dashboard. */
export async function signIn(page: Page, who: Login): Promise<void> {
  await submitSignIn(page, who);
  await expect(page).toHaveTitle('Tandem Hub: Dashboard');
}

/** Signs in in a browser of their own (a new context), its pages checked for accessibility too. */
export async function memberPage(browser: Browser, a11y: A11yWatcher, who: Login): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  a11y.watch(page);
  await signIn(page, who);
  return page;
}

/**
 * Closes whichever first-visit popup (welcome, brand visibility, tips tour) is showing over the
 * dashboard, once its menu is in. The seeded demo users have done them: for them nothing shows.
 */
export async function closeFirstVisitPopups(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  for (const name of ['Got it', 'Close', 'Skip tour']) {
    const button = page.getByRole('dialog').getByRole('button', { name }).first();
    if (await button.isVisible().catch(() => false)) await button.click();
  }
}

/** The header's credits badge ("5/6 credits"). */
export const badge = (page: Page): Locator => page.getByRole('button', { name: /^\d+\/\d+ credits$/ });
