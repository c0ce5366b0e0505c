import { describe, expect, it } from 'vitest';
import {
  canUpgradeToYearly,
  featurePurchasable,
  mainPrices,
  PAYMENT_COMPLETE,
  paymentCompleteMessage,
  paymentLinkKinds,
  pricePerPeriod,
  showAddons,
  showProducts,
  visibleOptions,
  webhookUpdated,
  yearlyUpgradeMessage,
} from './billing-rules';
import { checkoutRedirect, parentPath } from './payment-paths';
import { productsBody } from './test-fixtures';

const ids = (options: ReturnType<typeof visibleOptions>) => options.map(({ option }) => option.id);
const subscribed = { active: true, hasSubscription: true, available: 2, total: 6 };

describe('SPEC section 6 visibility rules', () => {
  it('shows products when productsAllowed, or without an active non-gifted subscription', () => {
    expect(showProducts(null)).toBe(true);
    expect(showProducts({ giftedOnly: true, active: true })).toBe(true);
    expect(showProducts(subscribed)).toBe(false);
    expect(showProducts({ ...subscribed, productsAllowed: true })).toBe(true);
  });

  it('shows add-ons only when addonsAllowed and the member has a subscription', () => {
    expect(showAddons({ addonsAllowed: true })).toBe(false);
    expect(showAddons({ ...subscribed, addonsAllowed: false })).toBe(false);
    expect(showAddons({ ...subscribed, addonsAllowed: true })).toBe(true);
  });

  it('offers a feature only when it exists, is unpaid and not expired', () => {
    const now = new Date('2026-11-23T05:00:00Z');
    expect(featurePurchasable({}, now)).toBe(false);
    expect(featurePurchasable({ featureDone: { _id: 'f1', paid: false } }, now)).toBe(true);
    expect(featurePurchasable({ featureDone: { _id: 'f1', paid: true } }, now)).toBe(false);
    expect(featurePurchasable({ featureDone: { _id: 'f1', paid: false, expires: '2026-11-22T00:00:00Z' } }, now)).toBe(false);
  });

  it('lists the cards a member may buy, hiding options below the credits the payment needs', () => {
    const answer = productsBody();
    expect(ids(visibleOptions(answer, null, { featureOnly: false, requiredCredits: 0 }))).toEqual([
      'tandem_main_monthly',
      'tandem_main_yearly',
      'tandem_access_3month',
    ]);
    const addOns = { ...subscribed, addonsAllowed: true };
    expect(ids(visibleOptions(answer, addOns, { featureOnly: false, requiredCredits: 0 }))).toEqual([
      'tandem_extra_3',
      'tandem_extra_1',
    ]);
    // A payment that must give 3 credits hides the 1-credit pack (and the 0-credit access).
    expect(ids(visibleOptions(answer, addOns, { featureOnly: false, requiredCredits: 3 }))).toEqual(['tandem_extra_3']);
    // Feature-only: only an unpaid, unexpired feature is for sale.
    expect(ids(visibleOptions(answer, null, { featureOnly: true, requiredCredits: 0 }))).toEqual([]);
    expect(
      ids(visibleOptions(answer, { featureDone: { _id: 'f1', paid: false } }, { featureOnly: true, requiredCredits: 0 })),
    ).toEqual(['tandem_feature_3month']);
  });
});

describe('feature-only purchase options (SPEC section 6)', () => {
  const now = new Date('2026-11-23T05:00:00Z');
  const answer = productsBody();
  const cases: readonly [string, Record<string, unknown> | null, boolean][] = [
    ['no credits info', null, false],
    ['no feature yet', { available: 0, total: 0 }, false],
    ['an unpaid feature without an end', { featureDone: { _id: 'f1', paid: false } }, true],
    ['an unpaid feature ending later', { featureDone: { _id: 'f1', paid: false, expires: '2026-12-23T00:00:00Z' } }, true],
    ['a paid feature', { featureDone: { _id: 'f1', paid: true, current: true } }, false],
    ['an expired unpaid feature', { featureDone: { _id: 'f1', paid: false, expires: '2026-11-22T00:00:00Z' } }, false],
    ['a feature ending this very moment', { featureDone: { _id: 'f1', paid: false, expires: now.toISOString() } }, false],
  ];

  it.each(cases)('%s: purchasable %s', (_, credits, purchasable) => {
    expect(featurePurchasable(credits, now)).toBe(purchasable);
  });

  it.each(cases.filter(([, credits]) => credits === null || !('expires' in ((credits.featureDone as object | undefined) ?? {}))))(
    '%s: the cards and the payment links follow it',
    (_, credits, purchasable) => {
      expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 0 }))).toEqual(
        purchasable ? ['tandem_feature_3month'] : [],
      );
      expect(paymentLinkKinds(credits, true)).toEqual(purchasable ? ['3month', '6month'] : []);
    },
  );

  it('never offers a feature-only member plans, access or credit packs, even without a plan', () => {
    const credits = { available: 0, total: 0, productsAllowed: true, addonsAllowed: true, featureDone: { _id: 'f1', paid: false } };
    const kinds = new Set(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 0 }).map(({ product }) => product.type));
    expect([...kinds]).toEqual(['feature']);
  });

  it('keeps the feature in an overlay whose payment must give credits (a feature is paid in money)', () => {
    const credits = { featureDone: { _id: 'f1', paid: false } };
    expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 1 }))).toEqual(['tandem_feature_3month']);
    expect(ids(visibleOptions(answer, credits, { featureOnly: true, requiredCredits: 3 }))).toEqual(['tandem_feature_3month']);
  });

  it('gives members every payment link while plans show, and none once subscribed', () => {
    expect(paymentLinkKinds(null, false)).toEqual(['monthly', 'yearly', 'one_off', '3month', '6month']);
    expect(paymentLinkKinds(subscribed, false)).toEqual([]);
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

  it('offers the upgrade to monthly subscribers only', () => {
    expect(canUpgradeToYearly(subscribed)).toBe(true);
    expect(canUpgradeToYearly({ ...subscribed, isYearly: true })).toBe(false);
    expect(canUpgradeToYearly({ ...subscribed, pendingApproval: true })).toBe(false);
    expect(canUpgradeToYearly({ ...subscribed, cancels: { cancel_at: '2026-12-01T00:00:00Z' } })).toBe(false);
    expect(canUpgradeToYearly({ giftedOnly: true, active: true })).toBe(false);
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

  it('knows a webhook update by a changed timestamp or one within 3 s of now', () => {
    const now = Date.parse('2026-11-23T05:00:10Z');
    const before = { 'invoice.paid': '2026-11-01T00:00:00Z' };
    expect(webhookUpdated(before, before, now)).toBe(false);
    expect(webhookUpdated(before, { 'invoice.paid': '2026-11-23T05:00:00Z' }, now)).toBe(true);
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
