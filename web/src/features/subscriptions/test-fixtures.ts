import type { PriceOption, ProductsResponse } from './api/billing';

const option = (overrides: Partial<PriceOption> & Pick<PriceOption, 'id' | 'unit_amount'>): PriceOption => ({
  link: `https://checkout.stripe.test/c/${overrides.id}`,
  currency: 'gbp',
  count: 6,
  months: 1,
  type: 'main',
  discountMessage: null,
  label: null,
  ...overrides,
});

/** A products answer shaped like BILLING_CONTRACT.md's catalogue. */
export function productsBody(overrides: Partial<ProductsResponse> = {}): ProductsResponse & Record<string, unknown> {
  return {
    currency: 'gbp',
    hasDiscount: null,
    products: [
      {
        id: 'main',
        name: 'Tandem membership',
        type: 'main',
        description: 'Every benefit of Tandem.',
        prices: {
          monthly: [option({ id: 'tandem_main_monthly', unit_amount: 4900, label: 'Monthly' })],
          yearly: [option({ id: 'tandem_main_yearly', unit_amount: 49000, months: 12, label: 'Yearly' })],
        },
      },
      {
        id: 'extra_credits',
        name: 'Extra credits',
        type: 'extra',
        prices: {
          one_time: [
            option({ id: 'tandem_extra_3', unit_amount: 2500, count: 3, months: null, type: 'extra', label: '3 credits' }),
            option({ id: 'tandem_extra_1', unit_amount: 950, count: 1, months: null, type: 'extra', label: '1 credit' }),
          ],
        },
      },
      {
        id: 'access_3month',
        name: '3-month access',
        type: 'main',
        prices: { one_time: [option({ id: 'tandem_access_3month', unit_amount: 12000, count: 0, months: 3, label: '3 months' })] },
      },
      {
        id: 'feature',
        name: 'Pitch feature',
        type: 'feature',
        prices: {
          one_time: [option({ id: 'tandem_feature_3month', unit_amount: 9900, count: 0, months: 3, type: 'feature', label: '3 months' })],
        },
      },
    ],
    ...overrides,
  };
}

/** The products answer with the main plan's free-trial option first in its monthly set, as the server offers it. */
export function productsWithTrial(): ProductsResponse & Record<string, unknown> {
  const answer = productsBody();
  return {
    ...answer,
    products: answer.products?.map((product) =>
      product.id === 'main'
        ? {
            ...product,
            prices: {
              ...product.prices,
              monthly: [
                option({
                  id: 'tandem_main_monthly:trial',
                  unit_amount: 4900,
                  label: '14-day free trial',
                  discountMessage: 'Free for 14 days, then £49 a month',
                  trialDays: 14,
                  trialCredits: 3,
                }),
                ...(product.prices?.monthly ?? []),
              ],
            },
          }
        : product,
    ),
  };
}

const DAY_MS = 86_400_000;
/** An ISO date `days` from now (the server's dates are ISO 8601). */
export const inDays = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString();

const MEMBER_AREAS = {
  matches: true,
  connections: true,
  declines: true,
  'send-requests': true,
  'collab-ideas': true,
  'video-guides': true,
  requests: true,
  billing: true,
};

const TRIAL = {
  days: 14,
  credits: 3,
  terms: [
    'Try Tandem free for 14 days, once per account: 3 credits to send requests and pitch, and every brand name in Matches.',
    'We take your card but charge nothing until the trial ends; then the monthly plan starts and renews each month with 6 credits.',
    'Cancel in the payment portal before the trial ends and you pay nothing.',
  ],
};

/** Flags every credits info carries, as for an account without a plan. */
const NO_RIGHTS = {
  canSend: false,
  canPitch: false,
  canFeature: false,
  namesShown: false,
  trialOffered: false,
  trial: TRIAL,
  hasBillingAccount: false,
  canUpgradeToYearly: false,
  paymentFailed: false,
  featureOnly: false,
  productsAllowed: false,
  addonsAllowed: false,
  recurringAddonsAllowed: false,
  featureProductsAllowed: false,
  notAllowedMessage: null,
  areas: MEMBER_AREAS,
  next: null,
  addOns: [],
};

const ON_PLAN = { ...NO_RIGHTS, canSend: true, canPitch: true, canFeature: true, namesShown: true, addonsAllowed: true };

/**
 * Credits info as the server's one owner (tandem.domain.entitlements.credits_info) builds it,
 * one per account type: the flags and the plan the web reads.
 */
export function creditsOf(type: AccountType): Record<string, unknown> {
  const renews = inDays(30);
  switch (type) {
    case 'none':
      return {
        ...NO_RIGHTS,
        available: 0,
        total: 0,
        productsAllowed: true,
        trialOffered: true,
        notAllowedMessage: 'You need to buy a subscription to continue.',
        plan: { state: 'none', kind: null, source: null, description: "You don't have a subscription yet.", renews: false, renewsOn: null, endsOn: null, trialEndsOn: null, nextCredits: null },
      };
    case 'monthly':
      return {
        ...ON_PLAN,
        available: 4,
        total: 6,
        recurringAddonsAllowed: true,
        hasBillingAccount: true,
        canManageSubscription: true,
        canUpgradeToYearly: true,
        next: { to: renews, credits: 4 },
        plan: { state: 'active', kind: 'monthly', source: 'stripe', description: 'You have a monthly subscription.', renews: true, renewsOn: renews, endsOn: null, trialEndsOn: null, nextCredits: { on: renews, credits: 6 } },
      };
    case 'yearly':
      return {
        ...ON_PLAN,
        available: 6,
        total: 6,
        recurringAddonsAllowed: true,
        hasBillingAccount: true,
        canManageSubscription: true,
        isYearly: true,
        next: { to: inDays(20), credits: 6 },
        plan: { state: 'active', kind: 'yearly', source: 'stripe', description: 'You have a yearly subscription.', renews: true, renewsOn: inDays(330), endsOn: null, trialEndsOn: null, nextCredits: { on: inDays(20), credits: 6 } },
      };
    case 'trial':
      return {
        ...ON_PLAN,
        available: 3,
        total: 3,
        recurringAddonsAllowed: true,
        hasBillingAccount: true,
        canManageSubscription: true,
        trialling: true,
        plan: { state: 'trialling', kind: 'trial', source: 'stripe', description: "You're on a free trial.", renews: true, renewsOn: inDays(14), endsOn: null, trialEndsOn: inDays(14), nextCredits: { on: inDays(14), credits: 6 } },
      };
    case 'trial cancelled':
      return {
        ...ON_PLAN,
        available: 3,
        total: 3,
        hasBillingAccount: true,
        canManageSubscription: true,
        trialling: true,
        plan: { state: 'trialling', kind: 'trial', source: 'stripe', description: "You're on a free trial.", renews: false, renewsOn: null, endsOn: inDays(12), trialEndsOn: inDays(12), nextCredits: null },
      };
    case 'gifted-only':
      return {
        ...NO_RIGHTS,
        canSend: true,
        canPitch: true,
        canFeature: true,
        available: 3,
        total: 3,
        giftedOnly: true,
        productsAllowed: true,
        trialOffered: true,
        next: { to: inDays(25), credits: 3 },
        addOns: [{ productName: 'Gifted credits', type: 'gifted', total: 3, available: 3, valid: { to: inDays(25) } }],
        plan: { state: 'gifted', kind: 'gifted', source: null, description: 'You have gifted credits, without a subscription. Gifted credits do not renew.', renews: false, renewsOn: null, endsOn: null, trialEndsOn: null, nextCredits: null },
      };
    case 'fixed term':
      return {
        ...ON_PLAN,
        available: 6,
        total: 6,
        fixedTerm: true,
        hasBillingAccount: true,
        canManageSubscription: false,
        next: { to: inDays(20), credits: 6 },
        plan: { state: 'fixed_term', kind: 'fixed_term', source: 'stripe', description: 'You have fixed-term access. It does not renew.', renews: false, renewsOn: null, endsOn: inDays(80), trialEndsOn: null, nextCredits: { on: inDays(20), credits: 6 } },
      };
    case 'pending approval':
      return {
        ...ON_PLAN,
        available: 6,
        total: 6,
        recurringAddonsAllowed: true,
        hasBillingAccount: true,
        canManageSubscription: true,
        pendingApproval: true,
        plan: {
          state: 'pending_approval',
          kind: 'monthly',
          source: 'stripe',
          description: 'Your subscription is waiting for approval, normally within 24 hours. Requests you send meanwhile go out once it is approved.',
          renews: true,
          renewsOn: renews,
          endsOn: null,
          trialEndsOn: null,
          nextCredits: { on: renews, credits: 6 },
        },
      };
    case 'feature-only':
      return {
        ...NO_RIGHTS,
        available: 0,
        total: 0,
        featureOnly: true,
        featureProductsAllowed: true,
        notAllowedMessage: 'Your account features your brand in the Pitch Area: it does not send requests.',
        featureDone: { _id: 'f1', approved: false, current: false, pending: true, paid: false, expires: null, hasHadLive: false },
        areas: { ...Object.fromEntries(Object.keys(MEMBER_AREAS).map((area) => [area, false])), billing: true },
        plan: { state: 'feature_only', kind: null, source: null, description: 'Your account features your brand in the Pitch Area.', renews: false, renewsOn: null, endsOn: null, trialEndsOn: null, nextCredits: null },
      };
    case 'granted plan':
      return {
        ...ON_PLAN,
        available: 6,
        total: 6,
        plan: { state: 'active', kind: 'granted', source: 'tandem', description: 'You have a membership granted by the Tandem team.', renews: false, renewsOn: null, endsOn: inDays(60), trialEndsOn: null, nextCredits: { on: inDays(10), credits: 6 } },
      };
  }
}

export type AccountType =
  | 'none'
  | 'monthly'
  | 'yearly'
  | 'trial'
  | 'trial cancelled'
  | 'gifted-only'
  | 'fixed term'
  | 'pending approval'
  | 'feature-only'
  | 'granted plan';
