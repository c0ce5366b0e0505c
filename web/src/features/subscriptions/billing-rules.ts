/**
 * Who sees which purchase options, and the billing texts (SPEC sections 2, 4, 6, 8 and 9),
 * as pure functions of the dashboard's credits info so each rule is testable.
 */
import type { CreditsInfo } from '@/features/dashboard';
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

/** The member has a subscription of their own (not gifted credits only). */
export function hasPaidSubscription(credits: CreditsInfo | null | undefined): boolean {
  return (credits?.active === true || credits?.hasSubscription === true) && credits.giftedOnly !== true;
}

/** SPEC section 6: products show when productsAllowed, or without an active non-gifted subscription. */
export function showProducts(credits: CreditsInfo | null | undefined): boolean {
  return credits?.productsAllowed === true || !hasPaidSubscription(credits);
}

/** SPEC section 6: add-ons show only when addonsAllowed and the member has a subscription. */
export function showAddons(credits: CreditsInfo | null | undefined): boolean {
  return credits?.addonsAllowed === true && (credits.hasSubscription === true || credits.active === true);
}

/** SPEC section 6 (feature-only): purchase options show only when a feature exists, is unpaid and not expired. */
export function featurePurchasable(credits: CreditsInfo | null | undefined, now: Date = new Date()): boolean {
  const feature = credits?.featureDone;
  if (!feature?._id || feature.paid === true) return false;
  const expires = parseDate(feature.expires);
  return expires === null || expires.getTime() > now.getTime();
}

/**
 * The payment-link buttons (GET payment-link/{kind}) on the Billing page: every kind where
 * plans show; for a feature-only member only the feature terms, and only while a feature is
 * purchasable (SPEC section 6); none otherwise.
 */
export function paymentLinkKinds(credits: CreditsInfo | null | undefined, featureOnly: boolean): PaymentLinkKind[] {
  if (featureOnly) return featurePurchasable(credits) ? ['3month', '6month'] : [];
  return showProducts(credits) ? ['monthly', 'yearly', 'one_off', '3month', '6month'] : [];
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
  const allowed = (product: Product): boolean => {
    if (product.type === 'feature') return featurePurchasable(credits);
    if (featureOnly) return false;
    if (product.type === 'extra') return showAddons(credits);
    return showProducts(credits);
  };
  const options: VisibleOption[] = [];
  for (const product of answer?.products ?? []) {
    if (!allowed(product)) continue;
    for (const period of PRICE_PERIODS) {
      for (const option of product.prices?.[period] ?? []) {
        if (product.type !== 'feature' && typeof option.count === 'number' && option.count < requiredCredits) continue;
        options.push({ product, period, option });
      }
    }
  }
  return options;
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
    const mains = products.filter((product) => product.type === 'main' && product.prices?.monthly?.length && product.prices.yearly?.length);
    const main = mains.find((product) => product.id === productId) ?? mains[0];
    const monthly = main?.prices?.monthly?.[0];
    const yearly = main?.prices?.yearly?.[0];
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

/** A monthly subscriber who may upgrade to yearly. */
export function canUpgradeToYearly(credits: CreditsInfo | null | undefined): boolean {
  return (
    hasPaidSubscription(credits) &&
    credits?.isYearly !== true &&
    credits?.pendingApproval !== true &&
    credits?.trialling !== true &&
    credits?.fixedTerm !== true &&
    !credits?.cancels?.cancel_at &&
    !credits?.cancels?.cancelled_at
  );
}

/** Has (or had) a plan with the payment provider: the portal can manage it. */
export function hasBillingAccount(credits: CreditsInfo | null | undefined): boolean {
  return (
    credits?.hasSubscription === true ||
    credits?.active === true ||
    credits?.trialling === true ||
    credits?.pendingApproval === true ||
    Boolean(credits?.cancels?.cancel_at ?? credits?.cancels?.cancelled_at)
  );
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
 * Whether a webhook timestamp moved: one differs from the baseline, or one is within
 * 3 s of now (SPEC section 4, update watch).
 */
export function webhookUpdated(
  baseline: Readonly<Record<string, unknown>> | null,
  current: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
): boolean {
  for (const [type, value] of Object.entries(current)) {
    if (baseline !== null && baseline[type] !== value) return true;
    const at = typeof value === 'string' || typeof value === 'number' ? parseDate(value) : null;
    if (at && Math.abs(now - at.getTime()) <= UPDATE_FRESH_MS) return true;
  }
  return false;
}
