import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { leaveApp } from '@/lib/leave-app';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { productsBody } from '../test-fixtures';

vi.mock('@/lib/leave-app', () => ({ leaveApp: vi.fn() }));

const monthly = {
  available: 4,
  total: 6,
  active: true,
  hasSubscription: true,
  isYearly: false,
  productsAllowed: false,
  addonsAllowed: true,
  expires: { period: '2026-12-03T00:00:00Z' },
};

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
  it('shows a member without a plan the plans, with prices, credits and Buy now to checkout', async () => {
    openBilling({ available: 0, total: 0 });
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
      { available: 0, total: 0 },
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
    expect(screen.getByText('It renews on 3rd December.')).toBeInTheDocument();
    const bought = within(screen.getByRole('region', { name: 'Your add-ons' }));
    expect(bought.getByText('2/3 credits left, valid until 10th December.')).toBeInTheDocument();
    expect(bought.getByText('(Gifted credits)')).toBeInTheDocument();
    const list = await cards();
    expect(list.getByRole('link', { name: 'Buy now: Extra credits, 3 credits' })).toBeInTheDocument();
    expect(list.queryByText('Tandem membership')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Copy .* link/ })).not.toBeInTheDocument();
  });

  it('shows the pending-approval notice and the feature-only status with only the feature for sale', async () => {
    openBilling({ ...monthly, pendingApproval: true });
    expect(await screen.findByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upgrade to yearly' })).not.toBeInTheDocument();
  });

  it('shows a feature-only member their feature and its payment only', async () => {
    openBilling({ available: 0, total: 0, featureDone: { _id: 'f1', paid: false } }, {}, { featureOnly: true });
    expect(await screen.findByText('Your feature is ready: pay for it below to go live.')).toBeInTheDocument();
    const list = await cards();
    expect(list.getAllByRole('listitem')).toHaveLength(1);
    expect(list.getByRole('link', { name: 'Buy now: Pitch feature, 3 months' })).toBeInTheDocument();
  });

  it('gives a feature-only member with an unpaid feature the feature payment links only', async () => {
    openBilling({ available: 0, total: 0, featureDone: { _id: 'f1', paid: false } }, {}, { featureOnly: true });
    const links = within(await screen.findByRole('region', { name: 'Payment links' }));
    expect(links.getAllByRole('button').map((button) => button.textContent)).toEqual(['Copy 3 months link', 'Copy 6 months link']);
  });

  it.each([
    ['paid', { _id: 'f1', paid: true }],
    ['expired', { _id: 'f1', paid: false, expires: '2020-01-01T00:00:00Z' }],
    ['not created yet', undefined],
  ])('offers a feature-only member nothing to buy when their feature is %s', async (_, featureDone) => {
    openBilling({ available: 0, total: 0, featureDone }, {}, { featureOnly: true });
    expect(await screen.findByText("There's nothing to buy for your account right now.")).toBeInTheDocument();
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
    const { user } = openBilling(null, {
      'GET payment-link/yearly': { link: 'https://buy.stripe.test/l/yearly?client_reference_id=1' },
      'GET payment-link/monthly': jsonResponse({ error: 'Unknown payment link' }, 400),
    });
    await user.click(await screen.findByRole('button', { name: 'Copy yearly link' }));
    expect(await screen.findByText('Payment link copied to clipboard')).toBeInTheDocument();
    // user-event gives the page a clipboard of its own: it holds the link.
    await expect(navigator.clipboard.readText()).resolves.toBe('https://buy.stripe.test/l/yearly?client_reference_id=1');
    await user.click(screen.getByRole('button', { name: 'Copy monthly link' }));
    expect(await screen.findByText('generatePaymentLink')).toBeInTheDocument();
    expect(screen.getByText('Unknown payment link')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('https://buy.stripe.test/l/yearly?client_reference_id=1');
  });

  it('says when the plans cannot load, in a toast titled loadProducts and with Try again', async () => {
    const { user } = openBilling(null, { 'GET products': jsonResponse({ error: 'Stripe is unavailable' }, 503) });
    expect(await screen.findByText("We couldn't load the plans")).toBeInTheDocument();
    expect(await screen.findByText('loadProducts')).toBeInTheDocument();
    mockApi({ ...shellRoutes({ credits: null }), 'GET products': productsBody() });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Buy now: Tandem membership, Monthly' })).toBeInTheDocument();
  });
});
