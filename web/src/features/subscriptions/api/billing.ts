import { api, asBrand } from '@/lib/api';

/**
 * The billing calls of SPEC section 7 ("Payments") with the shapes of
 * /work/wt/BILLING_CONTRACT.md (the billing API contract, issue 12).
 */

export type PricePeriod = 'monthly' | 'yearly' | 'one_time';
export const PRICE_PERIODS: readonly PricePeriod[] = ['monthly', 'yearly', 'one_time'];

/** SPEC section 3 "Product price option". */
export interface PriceOption {
  /** The Stripe lookup key, e.g. tandem_main_monthly. */
  readonly id: string;
  /** Where Buy now goes: a Stripe Checkout Session for this member and brand (absent when created lazily). */
  readonly link?: string | null;
  /** Minor units (pence, cents). */
  readonly unit_amount: number;
  readonly currency?: string;
  /** Credits the option gives. */
  readonly count?: number | null;
  readonly months?: number | null;
  readonly type?: 'main' | 'feature' | 'extra' | (string & {});
  readonly discountMessage?: string | null;
  readonly label?: string | null;
  /** The main plan's free-trial option (id 'tandem_main_monthly:trial'): its days and credits. */
  readonly trialDays?: number | null;
  readonly trialCredits?: number | null;
}

export interface Product {
  readonly id: string;
  readonly name: string;
  readonly type?: 'main' | 'feature' | 'extra' | (string & {});
  readonly description?: string | null;
  readonly prices?: Partial<Record<PricePeriod, readonly PriceOption[]>>;
}

/** SPEC section 3 "Products response". */
export interface ProductsResponse {
  readonly currency?: string;
  readonly products?: readonly Product[];
  readonly hasDiscount?: { readonly message?: string | null } | null;
}

export type PaymentKind = 'subscription' | 'extra_credits' | 'addon' | 'access' | 'feature';

export interface PaymentStatus {
  readonly status: 'paid' | 'pending' | 'failed' | 'expired' | 'open' | (string & {});
  readonly kind?: PaymentKind | (string & {});
  readonly processed?: boolean;
  /** With status failed: the bank's reason as Stripe words it ('Your card was declined.'). */
  readonly message?: string | null;
}

export interface WebhooksInProgress {
  readonly count: number;
  readonly recent?: readonly { readonly type: string; readonly at: string }[];
}

/** The payment-link kinds of SPEC section 7. */
export type PaymentLinkKind = 'monthly' | 'yearly' | 'one_off' | '3month' | '6month';

/** Operation names: a failure shows as a toast with this title (SPEC section 8). */
export const OPERATIONS = {
  loadProducts: 'loadProducts',
  generatePaymentLink: 'generatePaymentLink',
  getPortalLink: 'getPortalLink',
  yearlyUpgrade: 'yearlyUpgrade',
} as const;

/** GET products, or POST products {redirect} when checkout should come back to `redirect`. */
export function fetchProducts(brand: string, redirect: string | null): Promise<ProductsResponse> {
  // A failure is toasted (loadProducts) by the list on screen, not here: a load nobody waits for says nothing.
  const options = asBrand(brand);
  return redirect ? api.post<ProductsResponse>('products', { redirect }, options) : api.get<ProductsResponse>('products', options);
}

/** The lazy form of the contract: one Checkout Session per Buy now. */
export function createCheckout(priceId: string, redirect: string | null): Promise<{ url: string }> {
  return api.post<{ url: string }>('checkout', { priceId, ...(redirect ? { redirect } : {}) }, { operation: OPERATIONS.loadProducts });
}

export function fetchPaymentStatus(brand: string, sessionId: string): Promise<PaymentStatus> {
  return api.get<PaymentStatus>(`stripe/payment-status/${encodeURIComponent(sessionId)}`, asBrand(brand));
}

export function fetchWebhooksInProgress(brand: string): Promise<WebhooksInProgress> {
  return api.get<WebhooksInProgress>('users/webhooks-in-progress', asBrand(brand));
}

export function fetchPortalUrl(): Promise<{ url: string }> {
  return api.get<{ url: string }>('users/stripe-portal-url', { operation: OPERATIONS.getPortalLink });
}

export function fetchPaymentLink(kind: PaymentLinkKind): Promise<{ link: string }> {
  return api.get<{ link: string }>(`payment-link/${kind}`, { operation: OPERATIONS.generatePaymentLink });
}

/** Upgrades the monthly subscription to yearly. Errors are not toasted here: the caller shows them. */
export function upgradeToYearly(): Promise<{ upgraded: boolean; message?: string }> {
  return api.get<{ upgraded: boolean; message?: string }>('users/yearly-upgrade');
}

/** The user record's webhook timestamps (GET users), read by the update watch. */
export function fetchLastWebhookUpdate(brand: string): Promise<Readonly<Record<string, unknown>>> {
  return api
    .get<{ lastWebhookUpdate?: Readonly<Record<string, unknown>> }>('users', asBrand(brand))
    .then((user) => user.lastWebhookUpdate ?? {});
}
