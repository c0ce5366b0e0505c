import { describe, expect, it } from 'vitest';
import {
  linkedOption,
  mainPrices,
  PAYMENT_COMPLETE,
  paymentCompleteMessage,
  paymentLinkKinds,
  paymentLinkLabel,
  pricePerPeriod,
  showAddons,
  showProducts,
  visibleOptions,
  webhookUpdated,
  yearlyUpgradeMessage,
} from './billing-rules';
import { checkoutRedirect, parentPath } from './payment-paths';
import { creditsOf, productsBody, productsWithTrial } from './test-fixtures';

const ids = (options: ReturnType<typeof visibleOptions>) => options.map(({ option }) => option.id);
const subscribed = creditsOf('monthly');

describe("SPEC section 6 visibility rules: reads of the server's flags", () => {
  it('shows products exactly when productsAllowed, whatever else the credits say', () => {
    expect(showProducts(null)).toBe(false);
    expect(showProducts({ productsAllowed: true })).toBe(true);
    // The flags the web once re-derived it from no longer count: the server's answer does.
    expect(showProducts({ giftedOnly: true, active: true, productsAllowed: false })).toBe(false);
    expect(showProducts({ active: true, hasSubscription: true, productsAllowed: true })).toBe(true);
    expect(showProducts(creditsOf('pending approval'))).toBe(false);
    expect(showProducts(creditsOf('gifted-only'))).toBe(true);
  });

  it('shows add-ons exactly when addonsAllowed', () => {
    expect(showAddons({ addonsAllowed: true })).toBe(true);
    expect(showAddons({ active: true, hasSubscription: true, addonsAllowed: false })).toBe(false);
    expect(showAddons(null)).toBe(false);
  });

  it('lists the cards a member may buy, hiding options below the credits the payment needs', () => {
    const answer = productsBody();
    expect(ids(visibleOptions(answer, creditsOf('none'), { featureOnly: false, requiredCredits: 0 }))).toEqual([
      'tandem_main_monthly',
      'tandem_main_yearly',
      'tandem_access_3month',
    ]);
    expect(ids(visibleOptions(answer, subscribed, { featureOnly: false, requiredCredits: 0 }))).toEqual([
      'tandem_extra_3',
      'tandem_extra_1',
    ]);
    // A payment that must give 3 credits hides the 1-credit pack (and the 0-credit access).
    expect(ids(visibleOptions(answer, subscribed, { featureOnly: false, requiredCredits: 3 }))).toEqual(['tandem_extra_3']);
    // No credits info yet: nothing is offered until the server says what may be bought.
    expect(ids(visibleOptions(answer, null, { featureOnly: false, requiredCredits: 0 }))).toEqual([]);
  });

  it('puts the free trial first, only while the server offers it', () => {
    const answer = productsWithTrial();
    expect(ids(visibleOptions(answer, creditsOf('none'), { featureOnly: false, requiredCredits: 0 }))).toEqual([
      'tandem_main_monthly:trial',
      'tandem_main_monthly',
      'tandem_main_yearly',
      'tandem_access_3month',
    ]);
    const used = { ...creditsOf('none'), trialOffered: false };
    expect(ids(visibleOptions(answer, used, { featureOnly: false, requiredCredits: 0 }))).not.toContain('tandem_main_monthly:trial');
    // The yearly saving still reads the paid monthly price, never the trial option.
    expect(mainPrices(answer)?.monthly.id).toBe('tandem_main_monthly');
  });
});

describe("feature-only purchase options (SPEC section 6, the server's featureProductsAllowed)", () => {
  const answer = productsBody();

  it.each([
    ['no credits info', null, false],
    ['the server allows paying for the feature', { featureOnly: true, featureProductsAllowed: true }, true],
    ['the server does not', { featureOnly: true, featureProductsAllowed: false, featureDone: { _id: 'f1', paid: false } }, false],
  ] as const)('%s: the cards and the payment links follow it', (_, credits, purchasable) => {
    expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 0 }))).toEqual(
      purchasable ? ['tandem_feature_3month'] : [],
    );
    expect(paymentLinkKinds(credits)).toEqual(purchasable ? ['3month', '6month'] : []);
  });

  it('never offers a feature-only member plans, access or credit packs, even if a flag said so', () => {
    const credits = { productsAllowed: true, addonsAllowed: true, featureProductsAllowed: true };
    const kinds = new Set(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 0 }).map(({ product }) => product.type));
    expect([...kinds]).toEqual(['feature']);
  });

  it('keeps the feature in an overlay whose payment must give credits (a feature is paid in money)', () => {
    const credits = { featureProductsAllowed: true };
    expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 1 }))).toEqual(['tandem_feature_3month']);
    expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 3 }))).toEqual(['tandem_feature_3month']);
  });
});

describe('payment links: only what the member may buy, named by what they sell', () => {
  it('gives the plan links while plans are allowed, and none once the server says no', () => {
    expect(paymentLinkKinds(creditsOf('none'))).toEqual(['monthly', 'yearly', 'one_off']);
    expect(paymentLinkKinds(subscribed)).toEqual([]);
    expect(paymentLinkKinds(creditsOf('pending approval'))).toEqual([]);
    expect(paymentLinkKinds(null)).toEqual([]);
  });

  it('names each link by the product and price it sells, read from the products answer', () => {
    const answer = productsBody();
    const label = (kind: Parameters<typeof paymentLinkLabel>[0]) => paymentLinkLabel(kind, linkedOption(kind, answer, null));
    expect(label('monthly')).toBe('Copy monthly membership link (£49 a month)');
    expect(label('yearly')).toBe('Copy yearly membership link (£490 a year)');
    expect(label('one_off')).toBe('Copy 3-month access link (£120)');
    expect(label('3month')).toBe('Copy 3-month feature link (£99)');
    // Not in the products answer nor in Credits info: the link still says what it sells.
    expect(label('6month')).toBe('Copy 6-month feature link');
  });

  it("reads a product not on sale to the member from Credits info's products, and never the trial option", () => {
    const held = {
      products: {
        feature: {
          name: 'Pitch feature',
          type: 'feature',
          prices: { one_time: [{ id: 'tandem_feature_6_months', unit_amount: 24900, currency: 'gbp', months: 6, type: 'feature' }] },
        },
      },
    };
    expect(paymentLinkLabel('6month', linkedOption('6month', productsBody(), held))).toBe('Copy 6-month feature link (£249)');
    expect(linkedOption('monthly', productsWithTrial(), null)?.option.id).toBe('tandem_main_monthly');
  });
});

describe('prices and the yearly saving (SPEC sections 4 and 9)', () => {
  it('reads prices per period in minor units, without decimals when whole', () => {
    const option = (product: number, period: 'monthly' | 'yearly' | 'one_time', index = 0) => {
      const found = productsBody().products?.[product]?.prices?.[period]?.[index];
      if (!found) throw new Error('fixture changed');
      return found;
    };
    expect(pricePerPeriod(option(0, 'monthly'), 'monthly', 'gbp')).toBe('£49 / month');
    expect(pricePerPeriod(option(0, 'yearly'), 'yearly', 'gbp')).toBe('£490 / year');
    expect(pricePerPeriod(option(1, 'one_time', 1), 'one_time', 'gbp')).toBe('£9.50 one-off');
    expect(pricePerPeriod(option(2, 'one_time'), 'one_time', 'gbp')).toBe('£120 for 3 months');
    expect(pricePerPeriod({ id: 'x', unit_amount: 1000, currency: 'usd' }, 'monthly', 'usd')).toBe('$10 / month');
  });

  it('saves twelve times the monthly price minus the yearly price, and says unused time is credited', () => {
    const prices = mainPrices(productsBody());
    if (!prices) throw new Error('no main prices');
    expect(yearlyUpgradeMessage(prices.monthly, prices.yearly, 'gbp')).toBe(
      'Pay yearly and save £98 a year: £490 a year instead of 12 × £49. The unused time on your monthly plan is credited against the yearly price.',
    );
  });

  it("finds a subscriber's plan prices in Credits info when the plan is not on offer to them", () => {
    // A monthly subscriber's products answer has no main product (it is not sold to them again).
    const offered = productsBody({ products: productsBody().products?.filter((product) => product.id !== 'main') });
    expect(mainPrices(offered, 'main')).toBeNull();
    const held = {
      ...subscribed,
      products: {
        main: {
          name: 'Tandem membership',
          type: 'main',
          prices: {
            monthly: [{ id: 'tandem_main_monthly', unit_amount: 4900, currency: 'gbp' }],
            yearly: [{ id: 'tandem_main_yearly', unit_amount: 49000, currency: 'gbp' }],
            one_time: [],
          },
        },
      },
    };
    const prices = mainPrices(offered, 'main', held);
    if (!prices) throw new Error('no main prices');
    expect(yearlyUpgradeMessage(prices.monthly, prices.yearly, 'gbp')).toBe(
      'Pay yearly and save £98 a year: £490 a year instead of 12 × £49. The unused time on your monthly plan is credited against the yearly price.',
    );
  });

});

describe('payment flow helpers', () => {
  it('picks the payment-complete text by page type and member (SPEC section 8, word for word)', () => {
    expect(paymentCompleteMessage('account', false)).toBe(
      "Thank you! Your payment has been processed. Now the fun begins - let's find you some incredible brands to partner with.",
    );
    expect(paymentCompleteMessage('pitch', false)).toBe(PAYMENT_COMPLETE.pitch);
    expect(paymentCompleteMessage('account', true)).toBe('Thanks, your payment has been processed successfully.');
    expect(paymentCompleteMessage('pitch', true)).toBe('Thanks, your payment has been processed successfully.');
  });

  it('knows a webhook update by a changed timestamp, or without a baseline by one within 3 s of now', () => {
    const now = Date.parse('2026-11-23T05:00:10Z');
    const before = { 'invoice.paid': '2026-11-01T00:00:00Z' };
    expect(webhookUpdated(before, before, now)).toBe(false);
    expect(webhookUpdated(before, { 'invoice.paid': '2026-11-23T05:00:00Z' }, now)).toBe(true);
    expect(webhookUpdated(before, { ...before, 'customer.subscription.updated': '2026-11-22T00:00:00Z' }, now)).toBe(true);
    // Fresh, but already in the baseline: the webhook of what came before, not news.
    const just = { ...before, 'checkout.session.completed': '2026-11-23T05:00:09Z' };
    expect(webhookUpdated(just, just, now)).toBe(false);
    expect(webhookUpdated(null, { 'invoice.paid': '2026-11-23T05:00:08Z' }, now)).toBe(true);
    expect(webhookUpdated(null, { 'invoice.paid': '2026-11-23T05:00:06Z' }, now)).toBe(false);
  });

  it('returns to the parent path, and sends checkout back to a page with a payment-processing route', () => {
    expect(parentPath('/account/subscriptions/payment-processing/cs_1')).toBe('/account/subscriptions/');
    expect(parentPath('/requests/received/1/r9/payment-processing')).toBe('/requests/received/1/r9');
    expect(parentPath('/matches/brand/b7/payment-processing/cs_1')).toBe('/matches/brand/b7');
    expect(checkoutRedirect('account', '/account/subscriptions/')).toBeNull();
    expect(checkoutRedirect('request', '/requests/received/1/r9')).toBe('/requests/received/1/r9');
    expect(checkoutRedirect('match', '/matches/1/brand/b7')).toBe('/matches/brand/b7');
    expect(checkoutRedirect('matches', '/matches/saved/1')).toBe('/matches');
    expect(checkoutRedirect('requests', '/requests/sent')).toBe('/requests');
    expect(checkoutRedirect('pitch', '/pitch/new')).toBe('/pitch');
    expect(checkoutRedirect('pitch', '/pitch/p1')).toBe('/pitch/p1');
  });
});
