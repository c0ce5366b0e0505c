import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveApp } from '@/lib/leave-app';
import { dashboardBody, mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { formatOrdinalDate } from '@/lib/format';
import { creditsOf, productsBody, productsWithTrial, type AccountType } from '../test-fixtures';
import { pinToday } from '@/testing/clock';

vi.mock('@/lib/leave-app', () => ({ leaveApp: vi.fn() }));

const monthly = creditsOf('monthly');
const day = (iso: unknown) => formatOrdinalDate(new Date(String(iso)));
const planOf = (credits: Record<string, unknown>) => credits.plan as Record<string, unknown> & { nextCredits: { on: string } | null };

function openBilling(credits: Record<string, unknown> | null, routes: Record<string, MockAnswer> = {}, check: Record<string, unknown> = {}) {
  signIn();
  const api = mockApi({ ...shellRoutes({ credits }, check), 'GET products': productsBody(), ...routes });
  const view = renderRoute('/account/subscriptions/');
  return { ...view, api };
}

const cards = async () => within(await screen.findByRole('list', { name: 'Plans and credits' }));

beforeEach(() => {
  vi.mocked(leaveApp).mockClear();
});

describe('Subscriptions screen', () => {
  pinToday();

  it('shows a member without a plan the plans, with prices, credits and Buy now to checkout', async () => {
    openBilling({ ...creditsOf('none'), trialOffered: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByText("You don't have a subscription yet.")).toBeInTheDocument();
    const list = await cards();
    const items = list.getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.product-card__price')?.textContent)).toEqual([
      '£49 / month',
      '£490 / year',
      '£120 for 3 months',
    ]);
    expect(items[0]).toHaveTextContent('6 credits a month');
    expect(list.getByRole('link', { name: 'Buy now: Tandem membership, Monthly' })).toHaveAttribute(
      'href',
      'https://checkout.stripe.test/c/tandem_main_monthly',
    );
    // Add-ons need a subscription; the feature needs an unpaid feature; the badge hides at a total of 0.
    expect(list.queryByText('Extra credits')).not.toBeInTheDocument();
    expect(list.queryByText('Pitch feature')).not.toBeInTheDocument();
    expect(screen.queryByRole('status', { name: /credits$/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).not.toBeInTheDocument();
  });

  it('asks for a checkout when Buy now has no link yet (no Stripe customer: GET products writes nothing)', async () => {
    const lazy = productsBody();
    const unlinked = {
      ...lazy,
      products: lazy.products?.map((product) => ({
        ...product,
        prices: Object.fromEntries(Object.entries(product.prices ?? {}).map(([period, options]) => [period, options.map((o) => ({ ...o, link: null }))])),
      })),
    };
    const { user, api } = openBilling(
      creditsOf('none'),
      { 'GET products': unlinked, 'POST checkout': { url: 'https://checkout.stripe.test/c/cs_lazy' } },
    );
    const list = await cards();
    await user.click(list.getByRole('button', { name: 'Buy now: Tandem membership, Monthly' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_lazy');
    });
    expect(api.calls('POST checkout').map((call) => call.body)).toEqual([{ priceId: 'tandem_main_monthly' }]);
  });

  it('shows a monthly subscriber credits, add-ons to buy and bought, and no main plans', async () => {
    openBilling({
      ...monthly,
      addOns: [
        { productName: 'Extra credits', type: 'add-on-one-time', total: 3, available: 2, valid: { to: '2026-12-10T00:00:00Z' } },
        { productName: 'Gift from Tandem', type: 'gifted', total: 2, available: 2, valid: null },
      ],
    });
    expect(await screen.findByRole('status', { name: '4/6 credits' })).toHaveTextContent('4/6');
    expect(screen.getByText('You have a monthly subscription.')).toBeInTheDocument();
    expect(screen.getByText(`It renews on ${day(planOf(monthly).renewsOn)}.`)).toBeInTheDocument();
    const bought = within(screen.getByRole('region', { name: 'Your add-ons' }));
    expect(bought.getByText('2/3 credits left, valid until 10th December.')).toBeInTheDocument();
    expect(bought.getByText('(Gifted credits)')).toBeInTheDocument();
    const list = await cards();
    expect(list.getByRole('link', { name: 'Buy now: Extra credits, 3 credits' })).toBeInTheDocument();
    expect(list.queryByText('Tandem membership')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Copy .* link/ })).not.toBeInTheDocument();
  });

  it('tells a member awaiting approval that their plan awaits it, and never asks them to subscribe', async () => {
    openBilling(creditsOf('pending approval'));
    expect(await screen.findByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upgrade to yearly' })).not.toBeInTheDocument();
    expect(screen.queryByText(/You need to buy a subscription/)).not.toBeInTheDocument();
    expect(screen.queryByText("You don't have a subscription yet.")).not.toBeInTheDocument();
    expect(screen.queryByText('Tandem membership')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payment links' })).not.toBeInTheDocument();
  });

  it('shows a feature-only member their feature and its payment only', async () => {
    openBilling(creditsOf('feature-only'), {}, { featureOnly: true });
    expect(await screen.findByText('Your feature is ready: pay for it below to go live.')).toBeInTheDocument();
    const list = await cards();
    expect(list.getAllByRole('listitem')).toHaveLength(1);
    expect(list.getByRole('link', { name: 'Buy now: Pitch feature, 3 months' })).toBeInTheDocument();
  });

  it('gives a feature-only member with an unpaid feature the feature payment links only, named by what they sell', async () => {
    openBilling(creditsOf('feature-only'), {}, { featureOnly: true });
    const links = within(await screen.findByRole('region', { name: 'Payment links' }));
    expect(links.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Copy 3-month feature link (£99)',
      'Copy 6-month feature link',
    ]);
  });

  it.each([
    ['paid', { _id: 'f1', paid: true }],
    ['expired', { _id: 'f1', paid: false, expires: '2020-01-01T00:00:00Z' }],
    ['not created yet', undefined],
  ])('tells a feature-only member one true thing, and offers nothing, when their feature is %s', async (_, featureDone) => {
    openBilling({ ...creditsOf('feature-only'), featureProductsAllowed: false, featureDone }, {}, { featureOnly: true });
    expect(await screen.findByText('Your account features your brand in the Pitch Area.')).toBeInTheDocument();
    expect(screen.queryByText("You don't have a subscription yet.")).not.toBeInTheDocument();
    expect(screen.queryByText(/You need to buy a subscription/)).not.toBeInTheDocument();
    expect(screen.queryByText(/nothing to buy/)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payment links' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Buy now/ })).not.toBeInTheDocument();
  });

  it('opens the billing portal, and shows a refusal as a toast titled getPortalLink', async () => {
    let refuse = true;
    const { user } = openBilling(monthly, {
      'GET users/stripe-portal-url': () =>
        refuse
          ? jsonResponse({ error: "You don't have a subscription to manage yet" }, 400)
          : { url: 'https://billing.stripe.test/p/session_1' },
    });
    await user.click(await screen.findByRole('button', { name: 'Manage subscription' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('getPortalLink');
    expect(toast).toHaveTextContent("You don't have a subscription to manage yet");
    expect(leaveApp).not.toHaveBeenCalled();
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://billing.stripe.test/p/session_1');
    });
  });

  it('back from the portal, a cancellation processed while the member was away reloads the plan', async () => {
    // The member leaves for the portal with the stamps they had; the cancellation's webhook is
    // processed while they are away, so by the time the page is back its stamp is 10 s old (more
    // than the 3 s of freshness) and the page's first dashboard read was taken just before it.
    const before = { 'invoice.paid': new Date(Date.now() - 3_600_000).toISOString() };
    const after = { ...before, 'customer.subscription.updated': new Date(Date.now() - 10_000).toISOString() };
    const endsOn = planOf(monthly).renewsOn;
    const cancelled = {
      ...monthly,
      canUpgradeToYearly: false,
      plan: { ...planOf(monthly), state: 'cancelled', description: 'Your subscription is cancelled.', renews: false, renewsOn: null, endsOn },
    };
    // As usePortal leaves it; the real departure is covered by the first portal test.
    localStorage.setItem('tandem.billing.portal-opened', JSON.stringify({ openedAt: Date.now() - 60_000, baseline: before }));
    let dashboards = 0;
    const { api } = openBilling(
      monthly,
      {
        'GET dashboard': () => dashboardBody({ credits: dashboards++ === 0 ? monthly : cancelled }),
      },
      { lastWebhookUpdate: after },
    );
    expect(await screen.findByText(`It stays valid until ${day(endsOn)}. You can renew it from Manage subscription.`)).toBeInTheDocument();
    expect(screen.getByText('Your subscription is cancelled.', { exact: true })).toBeInTheDocument();
    expect(api.calls('GET dashboard')).toHaveLength(2); // the page's own read, then the watch's reload
    expect(localStorage.getItem('tandem.billing.portal-opened')).toBeNull();
  });

  it('leaving for the portal keeps the stamps as they stand when the member leaves, for the watch on the way back', async () => {
    // The page read its stamps at load; a purchase's late webhook was processed since. The baseline
    // kept is GET users' answer as the member leaves, so that webhook is not taken for the portal's.
    const loaded = { 'invoice.paid': '2026-12-01T09:00:00.000Z' };
    const now = { ...loaded, 'checkout.session.completed': '2026-12-01T09:00:02.000Z' };
    let users = 0; // the login check at start-up (the default brand's is GET users), then the departure's read
    const { user, api } = openBilling(monthly, {
      'GET users/stripe-portal-url': { url: 'https://billing.stripe.test/p/session_3' },
      'GET users': () => ({ id: 'u1', email: 'ana@oat.co', lastWebhookUpdate: users++ === 0 ? loaded : now }),
    });
    await user.click(await screen.findByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://billing.stripe.test/p/session_3');
    });
    const left = JSON.parse(localStorage.getItem('tandem.billing.portal-opened') ?? 'null') as { openedAt: unknown; baseline: unknown };
    expect(left.baseline).toEqual(now);
    expect(typeof left.openedAt).toBe('number');
    expect(api.calls('GET users')).toHaveLength(2);
  });

  it('leaving for the portal keeps the stamps the page had when reading them again fails', async () => {
    const loaded = { 'invoice.paid': '2026-12-01T09:00:00.000Z' };
    let users = 0;
    const { user } = openBilling(monthly, {
      'GET users/stripe-portal-url': { url: 'https://billing.stripe.test/p/session_4' },
      'GET users': () =>
        users++ === 0 ? { id: 'u1', email: 'ana@oat.co', lastWebhookUpdate: loaded } : jsonResponse({ error: 'Service unavailable' }, 503),
    });
    await user.click(await screen.findByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://billing.stripe.test/p/session_4');
    });
    const left = JSON.parse(localStorage.getItem('tandem.billing.portal-opened') ?? 'null') as { baseline: unknown };
    expect(left.baseline).toEqual(loaded);
  });

  it('upgrades to yearly after a confirmation with the saving, then says so', async () => {
    const { user, api } = openBilling(monthly, {
      'GET users/yearly-upgrade': { upgraded: true, message: 'Thanks, your yearly upgrade has been processed successfully...' },
      'GET users': { lastWebhookUpdate: {} },
    });
    await user.click(await screen.findByRole('button', { name: 'Upgrade to yearly' }));
    const ask = within(await screen.findByRole('dialog', { name: 'Upgrade to yearly' }));
    expect(ask.getByText(/save £98 a year/)).toHaveTextContent(
      'Pay yearly and save £98 a year: £490 a year instead of 12 × £49. The unused time on your monthly plan is credited against the yearly price.',
    );
    expect(api.calls('GET users/yearly-upgrade')).toHaveLength(0);
    await user.click(ask.getByRole('button', { name: 'Upgrade to yearly' }));
    const done = within(await screen.findByRole('dialog', { name: 'Yearly upgrade' }));
    expect(done.getByText('Thanks, your yearly upgrade has been processed successfully...')).toBeInTheDocument();
    expect(api.calls('GET users/yearly-upgrade')).toHaveLength(1);
  });

  it('shows the failed-payment text word for word, with the button to the invoice', async () => {
    const { user } = openBilling(monthly, {
      'GET users/yearly-upgrade': jsonResponse({ error: 'card declined' }, 402),
      'GET users/stripe-portal-url': { url: 'https://billing.stripe.test/p/session_2' },
    });
    await user.click(await screen.findByRole('button', { name: 'Upgrade to yearly' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Upgrade to yearly' })).getByRole('button', { name: 'Upgrade to yearly' }));
    const failed = within(await screen.findByRole('dialog', { name: 'Yearly upgrade failed' }));
    expect(
      failed.getByText(
        'Sorry, there was an error processing the payment for your yearly upgrade. Click the "Access ..." button below to view the failed invoice and try the payment again.',
      ),
    ).toBeInTheDocument();
    await user.click(failed.getByRole('button', { name: 'Access invoices' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://billing.stripe.test/p/session_2');
    });
  });

  it('copies a payment link to the clipboard', async () => {
    const { user } = openBilling(creditsOf('none'), {
      'GET payment-link/yearly': { link: 'https://buy.stripe.test/l/yearly?client_reference_id=1' },
      'GET payment-link/monthly': jsonResponse({ error: 'Unknown payment link' }, 400),
    });
    await user.click(await screen.findByRole('button', { name: 'Copy yearly membership link (£490 a year)' }));
    expect(await screen.findByText('Payment link copied to clipboard')).toBeInTheDocument();
    // user-event gives the page a clipboard of its own: it holds the link.
    await expect(navigator.clipboard.readText()).resolves.toBe('https://buy.stripe.test/l/yearly?client_reference_id=1');
    await user.click(screen.getByRole('button', { name: 'Copy monthly membership link (£49 a month)' }));
    expect(await screen.findByText('generatePaymentLink')).toBeInTheDocument();
    expect(screen.getByText('Unknown payment link')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('https://buy.stripe.test/l/yearly?client_reference_id=1');
  });

  it('says when the plans cannot load, in a toast titled loadProducts and with Try again', async () => {
    const { user } = openBilling(creditsOf('none'), { 'GET products': jsonResponse({ error: 'Stripe is unavailable' }, 503) });
    expect(await screen.findByText("We couldn't load the plans")).toBeInTheDocument();
    expect(await screen.findByText('loadProducts')).toBeInTheDocument();
    mockApi({ ...shellRoutes({ credits: creditsOf('none') }), 'GET products': productsBody() });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Buy now: Tandem membership, Monthly' })).toBeInTheDocument();
  });
});

describe('the free trial card', () => {
  it('comes first with its terms while the trial is offered, and Buy now starts it through the same checkout', async () => {
    const unlinked = productsWithTrial();
    const lazy = {
      ...unlinked,
      products: unlinked.products?.map((product) => ({
        ...product,
        prices: Object.fromEntries(Object.entries(product.prices ?? {}).map(([period, options]) => [period, options.map((o) => ({ ...o, link: null }))])),
      })),
    };
    const { user, api } = openBilling(creditsOf('none'), {
      'GET products': lazy,
      'POST checkout': { url: 'https://checkout.stripe.test/c/cs_trial' },
    });
    const list = await cards();
    const [firstCard] = list.getAllByRole('listitem');
    if (!firstCard) throw new Error('no cards');
    const first = within(firstCard);
    expect(first.getByText('14-day free trial')).toBeInTheDocument();
    expect(first.getByText('Free for 14 days, then £49 a month')).toBeInTheDocument();
    expect(first.getByText('3 credits during the trial')).toBeInTheDocument();
    const terms = within(first.getByRole('list', { name: 'Free trial terms' }));
    expect(terms.getAllByRole('listitem').map((item) => item.textContent)).toEqual((creditsOf('none').trial as { terms: string[] }).terms);
    await user.click(first.getByRole('button', { name: 'Start free trial: Tandem membership, 14-day free trial' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_trial');
    });
    expect(api.calls('POST checkout').map((call) => call.body)).toEqual([{ priceId: 'tandem_main_monthly:trial' }]);
  });

  it('is not shown once the trial is no longer offered', async () => {
    openBilling({ ...creditsOf('none'), trialOffered: false }, { 'GET products': productsWithTrial() });
    const list = await cards();
    expect(list.queryByText('14-day free trial')).not.toBeInTheDocument();
    expect(list.getAllByRole('listitem')).toHaveLength(3);
  });
});

describe("the Billing page's lead text and renewal line, per account type", () => {
  const cases: readonly [AccountType, (credits: Record<string, unknown>) => readonly string[], readonly RegExp[]][] = [
    ['monthly', (c) => ['You have a monthly subscription.', `It renews on ${day(planOf(c).renewsOn)}.`], [/ends on/]],
    [
      'yearly',
      (c) => [
        'You have a yearly subscription.',
        `It renews on ${day(planOf(c).renewsOn)}.`,
        `Your next 6 credits arrive on ${day(planOf(c).nextCredits?.on)}.`,
      ],
      [],
    ],
    [
      'trial',
      (c) => [
        "You're on a free trial.",
        `Your free trial ends on ${day(planOf(c).trialEndsOn)}. Then your monthly subscription starts and renews each month, charged to the card you gave, unless you cancel it before then in Manage subscription.`,
      ],
      [/renews on/],
    ],
    [
      'trial cancelled',
      (c) => ["You're on a free trial.", `Your free trial is cancelled: it ends on ${day(planOf(c).endsOn)} and you won't be charged.`],
      [/renews/, /arrive on/],
    ],
    ['gifted-only', () => ['You have gifted credits, without a subscription. Gifted credits do not renew.'], [/renews on/, /arrive on/, /new credits/]],
    ['fixed term', (c) => ['You have fixed-term access. It does not renew.', `Your access ends on ${day(planOf(c).endsOn)}.`], [/renews on/]],
    [
      'pending approval',
      () => ['Your subscription is waiting for approval, normally within 24 hours. Requests you send meanwhile go out once it is approved.'],
      [/You need to buy a subscription/, /You don't have a subscription yet/],
    ],
    ['feature-only', () => ['Your account features your brand in the Pitch Area.'], [/You need to buy a subscription/, /You don't have a subscription yet/]],
    [
      'granted plan',
      (c) => ['You have a membership granted by the Tandem team.', `It ends on ${day(planOf(c).endsOn)} and does not renew.`],
      [/renews on/],
    ],
  ];

  it.each(cases)('%s', async (type, shown, absent) => {
    const credits = creditsOf(type);
    openBilling(credits, {}, { featureOnly: type === 'feature-only' });
    const plan = within(await screen.findByRole('region', { name: 'Your plan' }));
    for (const text of shown(credits)) expect(plan.getByText(text)).toBeInTheDocument();
    for (const pattern of absent) expect(plan.queryByText(pattern)).not.toBeInTheDocument();
  });

  it('offers Manage subscription only for a subscription: a fixed term has its payments and invoices', async () => {
    openBilling(creditsOf('fixed term'));
    expect(await screen.findByText('You have fixed-term access. It does not renew.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage subscription' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Payments and invoices' })).toBeInTheDocument();
  });

  it('a gift has no payment portal at all', async () => {
    openBilling(creditsOf('gifted-only'));
    expect(await screen.findByText(/Gifted credits do not renew/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Manage subscription|Payments and invoices/ })).not.toBeInTheDocument();
  });
});
