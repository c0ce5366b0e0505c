/**
 * Who sees which purchase options, and the billing texts (SPEC sections 2, 4, 6, 8 and 9),
 * as pure functions of the dashboard's credits info so each rule is testable.
 */
import type { CreditsInfo } from '@/lib/session-state';
import { formatMoney, parseDate, yearlySaving } from '@/lib/format';
import {
  PRICE_PERIODS,
  type PaymentLinkKind,
  type PriceOption,
  type PricePeriod,
  type Product,
  type ProductsResponse,
} from './api/billing';
import { REQUEST_COST, type SubscriptionType } from './credits';

/** SPEC section 8, word for word. */
export const PAYMENT_COMPLETE = {
  default:
    "Thank you! Your payment has been processed. Now the fun begins - let's find you some incredible brands to partner with.",
  pitch: 'Thanks for your payment, please close this window to continue with your pitch.',
  featureOnly: 'Thanks, your payment has been processed successfully.',
} as const;
export const YEARLY_UPGRADE_SUCCESS = 'Thanks, your yearly upgrade has been processed successfully...';
export const YEARLY_UPGRADE_FAILED =
  'Sorry, there was an error processing the payment for your yearly upgrade. Click the "Access ..." button below to view the failed invoice and try the payment again.';
export const LINK_COPIED = 'Payment link copied to clipboard';

/** SPEC section 9. */
export const WEBHOOK_POLL_MS = 500;
export const WEBHOOK_RETRY_MS = 2000;
export const DASHBOARD_RELOAD_TIMEOUT_MS = 5000;
export const UPDATE_POLL_MS = 2000;
export const UPDATE_MAX_TRIES = 15;
export const UPDATE_FRESH_MS = 3000;

/**
 * Who may buy what is the server's to say (tandem.domain.entitlements): these read its
 * flags and decide nothing. A missing flag reads as "no".
 */

/** SPEC section 6: the plan products (the main plan, 3-month access) show when productsAllowed. */
export function showProducts(credits: CreditsInfo | null | undefined): boolean {
  return credits?.productsAllowed === true;
}

/** SPEC section 6: one-time add-on credits show when addonsAllowed. */
export function showAddons(credits: CreditsInfo | null | undefined): boolean {
  return credits?.addonsAllowed === true;
}

/** Monthly add-on credits show when recurringAddonsAllowed. */
export function showRecurringAddons(credits: CreditsInfo | null | undefined): boolean {
  return credits?.recurringAddonsAllowed === true;
}

/** SPEC section 6 (feature-only): the feature's terms show when featureProductsAllowed. */
export function showFeatureProducts(credits: CreditsInfo | null | undefined): boolean {
  return credits?.featureProductsAllowed === true;
}

/** The payment-link kinds that sell a plan, and those that sell a feature's term. */
const PLAN_LINKS: readonly PaymentLinkKind[] = ['monthly', 'yearly', 'one_off'];
const FEATURE_LINKS: readonly PaymentLinkKind[] = ['3month', '6month'];

/**
 * The payment-link buttons (GET payment-link/{kind}) on the Billing page: only what the
 * member may buy, by the server's flags: the plan links when products are allowed, the
 * feature links when the feature products are.
 */
export function paymentLinkKinds(credits: CreditsInfo | null | undefined): PaymentLinkKind[] {
  return [...(showProducts(credits) ? PLAN_LINKS : []), ...(showFeatureProducts(credits) ? FEATURE_LINKS : [])];
}

/** A product and one of its price options, as a payment link sells it. */
export interface LinkedOption {
  readonly product: { readonly id?: string; readonly name?: string; readonly type?: string };
  readonly option: PriceOption;
  readonly currency?: string;
}

type ProductLike = LinkedOption['product'] & { readonly prices?: Partial<Record<PricePeriod, readonly PriceOption[]>> };

/**
 * What a payment link sells, found in the products answer (or, for what is not on sale to this
 * member, Credits info's products) by the SPEC fields of its price option: `monthly` and
 * `yearly` the main plan's monthly and yearly price; `one_off` the one-time plan (type main,
 * paid once: 3-month access); `3month` and `6month` the feature's 3- and 6-month terms.
 */
export function linkedOption(
  kind: PaymentLinkKind,
  answer: ProductsResponse | undefined,
  credits: CreditsInfo | null | undefined,
): LinkedOption | null {
  const catalogue: ProductLike[] = [
    ...(answer?.products ?? []),
    ...Object.entries(credits?.products ?? {}).map(([id, product]): ProductLike => ({ id, ...product })),
  ];
  const find = (period: PricePeriod, wanted: (product: ProductLike, option: PriceOption) => boolean): LinkedOption | null => {
    for (const product of catalogue) {
      for (const option of product.prices?.[period] ?? []) {
        if (isTrialOption(option)) continue;
        const type = option.type ?? product.type;
        if (wanted({ ...product, type }, option)) return { product, option, currency: answer?.currency };
      }
    }
    return null;
  };
  switch (kind) {
    case 'monthly':
      return find('monthly', (product) => product.type === 'main');
    case 'yearly':
      return find('yearly', (product) => product.type === 'main');
    case 'one_off':
      return find('one_time', (product) => product.type === 'main');
    case '3month':
    case '6month':
      return find('one_time', (product, option) => product.type === 'feature' && option.months === (kind === '3month' ? 3 : 6));
  }
}

const LINK_FALLBACK: Readonly<Record<PaymentLinkKind, string>> = {
  monthly: 'monthly membership',
  yearly: 'yearly membership',
  one_off: '3-month access',
  '3month': '3-month feature',
  '6month': '6-month feature',
};

/**
 * A payment-link button's words: what the link sells and its price, 'Copy 3-month access link
 * (£139)', 'Copy monthly membership link (£49 a month)', 'Copy 3-month feature link (£149)'.
 */
export function paymentLinkLabel(kind: PaymentLinkKind, sold: LinkedOption | null): string {
  if (!sold) return `Copy ${LINK_FALLBACK[kind]} link`;
  const money = formatMoney(sold.option.unit_amount, sold.option.currency ?? sold.currency);
  const months = sold.option.months ?? 0;
  let what: string;
  if (sold.product.type === 'feature') what = `${months}-month feature`;
  else if (kind === 'monthly') what = 'monthly membership';
  else if (kind === 'yearly') what = 'yearly membership';
  else what = months > 0 ? `${months}-month access` : (sold.product.name ?? LINK_FALLBACK[kind]);
  const price = kind === 'monthly' ? `${money} a month` : kind === 'yearly' ? `${money} a year` : money;
  return `Copy ${what} link (${price})`;
}

/** The main plan's free-trial option (its id ends ':trial'; it carries trialDays). */
export function isTrialOption(option: PriceOption): boolean {
  return typeof option.trialDays === 'number' || option.id.endsWith(':trial');
}

/** The credits an overlay's payment must give (SPEC: options below it are hidden); 0 on the Billing page. */
export function requiredCreditsFor(type: SubscriptionType | null): number {
  return type === null || type === 'account' ? 0 : REQUEST_COST;
}

export interface VisibleOption {
  readonly product: Product;
  readonly period: PricePeriod;
  readonly option: PriceOption;
}

/**
 * The product cards a member sees, in catalogue order, by the rules of SPEC section 6. A feature
 * is paid for in money, not credits (its options carry count 0), so the credits a pop-up's
 * payment must give never hide it: a feature-only member can pay for their feature in any overlay.
 */
export function visibleOptions(
  answer: ProductsResponse | undefined,
  credits: CreditsInfo | null | undefined,
  { featureOnly, requiredCredits }: { readonly featureOnly: boolean; readonly requiredCredits: number },
): VisibleOption[] {
  const allowed = (product: Product, period: PricePeriod, option: PriceOption): boolean => {
    if (product.type === 'feature') return showFeatureProducts(credits);
    if (featureOnly) return false;
    if (isTrialOption(option)) return credits?.trialOffered === true && showProducts(credits);
    if (product.type === 'extra') return period === 'one_time' ? showAddons(credits) : showRecurringAddons(credits);
    return showProducts(credits);
  };
  const options: VisibleOption[] = [];
  for (const product of answer?.products ?? []) {
    for (const period of PRICE_PERIODS) {
      for (const option of product.prices?.[period] ?? []) {
        if (!allowed(product, period, option)) continue;
        if (product.type !== 'feature' && typeof option.count === 'number' && option.count < requiredCredits) continue;
        options.push({ product, period, option });
      }
    }
  }
  // The free trial comes first: the member reads its terms before any plan.
  return [...options.filter(({ option }) => isTrialOption(option)), ...options.filter(({ option }) => !isTrialOption(option))];
}

/** 'Monthly' price per period: '£49 / month', '£490 / year', '£120 for 3 months', '£20 one-off'. */
export function pricePerPeriod(option: PriceOption, period: PricePeriod, currency: string | undefined): string {
  const money = formatMoney(option.unit_amount, option.currency ?? currency);
  if (period === 'monthly') return `${money} / month`;
  if (period === 'yearly') return `${money} / year`;
  const months = option.months ?? 0;
  return months > 1 ? `${money} for ${months} months` : `${money} one-off`;
}

/** The first monthly and yearly price of the main subscription, for the yearly saving. */
export function mainPrices(answer: ProductsResponse | undefined, productId?: string | null, credits?: CreditsInfo | null) {
  const pick = (products: readonly Product[]) => {
    const mains = products.filter((product) => product.type === 'main' && product.prices?.monthly?.some((option) => !isTrialOption(option)) && product.prices.yearly?.length);
    const main = mains.find((product) => product.id === productId) ?? mains[0];
    const monthly = main?.prices?.monthly?.find((option) => !isTrialOption(option));
    const yearly = main?.prices?.yearly?.find((option) => !isTrialOption(option));
    return monthly && yearly ? { monthly, yearly } : null;
  };
  // A subscriber is not offered the plan again (products has no main): their plan's prices
  // are in Credits info's products.
  const held: Product[] = Object.entries(credits?.products ?? {}).map(([id, product]) => ({
    id,
    name: product.name ?? id,
    type: product.type,
    prices: product.prices,
  }));
  return pick(answer?.products ?? []) ?? pick(held);
}

/** The yearly upgrade's confirmation text: the saving (12 x monthly - yearly) and the credit for unused time. */
export function yearlyUpgradeMessage(monthly: PriceOption, yearly: PriceOption, currency: string | undefined): string {
  const saving = yearlySaving(monthly.unit_amount, yearly.unit_amount);
  const money = (minor: number) => formatMoney(minor, monthly.currency ?? currency);
  const lead =
    saving > 0
      ? `Pay yearly and save ${money(saving)} a year: ${money(yearly.unit_amount)} a year instead of 12 × ${money(monthly.unit_amount)}.`
      : `Pay ${money(yearly.unit_amount)} a year instead of ${money(monthly.unit_amount)} a month.`;
  return `${lead} The unused time on your monthly plan is credited against the yearly price.`;
}


/** The payment-complete message for a route type and member (SPEC section 8). */
export function paymentCompleteMessage(type: SubscriptionType | null, featureOnly: boolean): string {
  // A feature-only member pays only for features (on the pitch pages): there is no pitch of
  // theirs to continue, so theirs is the feature-only text wherever they paid.
  if (featureOnly) return PAYMENT_COMPLETE.featureOnly;
  if (type === 'pitch') return PAYMENT_COMPLETE.pitch;
  return PAYMENT_COMPLETE.default;
}

/** SPEC section 3 "Add-on" type, in words. */
export function addOnTypeLabel(type: string | undefined): string {
  if (type === 'gifted') return 'Gifted credits';
  if (type === 'add-on-one-time') return 'One-time add-on';
  if (type === 'recurring') return 'Recurring add-on';
  return 'Add-on';
}

/**
 * Whether a webhook timestamp moved (SPEC section 4, update watch): one differs from the
 * baseline, or, when there is no baseline to compare with, one is within 3 s of now. A stamp the
 * baseline already holds is not news however fresh it is: it is the webhook of what came before
 * (a purchase just made), and ending the watch on it would reload the plan before the change the
 * member is waiting for has arrived. Only without a baseline does freshness stand in for a change.
 */
export function webhookUpdated(
  baseline: Readonly<Record<string, unknown>> | null,
  current: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
): boolean {
  for (const [type, value] of Object.entries(current)) {
    if (baseline !== null) {
      if (baseline[type] !== value) return true;
      continue;
    }
    const at = typeof value === 'string' || typeof value === 'number' ? parseDate(value) : null;
    if (at && Math.abs(now - at.getTime()) <= UPDATE_FRESH_MS) return true;
  }
  return false;
}
