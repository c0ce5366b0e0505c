import { useMutation } from '@tanstack/react-query';
import { api, ApiError, asBrand } from '@/lib/api';
import { leaveApp } from '@/lib/leave-app';
import { errorToast } from '@/lib/mutations';
import { storage } from '@/lib/storage';

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

/** Operation names: a failed write shows as a toast with this title (SPEC section 8, the writes' meta.errorTitle). */
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
  return api.post<{ url: string }>('checkout', { priceId, ...(redirect ? { redirect } : {}) });
}

export function fetchPaymentStatus(brand: string, sessionId: string): Promise<PaymentStatus> {
  return api.get<PaymentStatus>(`stripe/payment-status/${encodeURIComponent(sessionId)}`, asBrand(brand));
}

export function fetchWebhooksInProgress(brand: string): Promise<WebhooksInProgress> {
  return api.get<WebhooksInProgress>('users/webhooks-in-progress', asBrand(brand));
}

export function fetchPortalUrl(): Promise<{ url: string }> {
  return api.get<{ url: string }>('users/stripe-portal-url');
}

export function fetchPaymentLink(kind: PaymentLinkKind): Promise<{ link: string }> {
  return api.get<{ link: string }>(`payment-link/${kind}`);
}

/** Upgrades the monthly subscription to yearly. */
export function upgradeToYearly(): Promise<{ upgraded: boolean; message?: string }> {
  return api.get<{ upgraded: boolean; message?: string }>('users/yearly-upgrade');
}

/** The user record's webhook timestamps (GET users), read by the update watch. */
export function fetchLastWebhookUpdate(brand: string): Promise<Readonly<Record<string, unknown>>> {
  return api
    .get<{ lastWebhookUpdate?: Readonly<Record<string, unknown>> }>('users', asBrand(brand))
    .then((user) => user.lastWebhookUpdate ?? {});
}

// ---------------------------------------------------------------- writes (mutations)

/** Set when the member leaves for the billing portal: back on the Billing page, the update watch runs. */
export const PORTAL_KEY = 'billing.portal-opened';

/** What PORTAL_KEY holds: when the member left and the webhook stamps as they stood then. */
export interface PortalLeft {
  readonly openedAt: number;
  readonly baseline: Readonly<Record<string, unknown>> | null;
}

/**
 * The stored departure, or null when there is none or it is not this shape. The baseline is
 * kept from before the member left: a change the portal made arrives by webhook, and it may be
 * processed (and its stamp more than 3 s old) before the Billing page is back and polls.
 */
export function portalLeft(): PortalLeft | null {
  const held = storage.get(PORTAL_KEY);
  if (typeof held === 'number') return { openedAt: held, baseline: null }; // as kept before the baseline was
  if (typeof held !== 'object' || held === null) return null;
  const { openedAt, baseline } = held as Record<string, unknown>;
  if (typeof openedAt !== 'number') return null;
  const stamps = typeof baseline === 'object' && baseline !== null && !Array.isArray(baseline) ? baseline : null;
  return { openedAt, baseline: stamps as Readonly<Record<string, unknown>> | null };
}

/** Buy now without a ready link: one Checkout Session, then the page leaves for it. */
export function useCheckout(redirect: string | null) {
  return useMutation({
    meta: errorToast(OPERATIONS.loadProducts),
    mutationFn: (priceId: string) => createCheckout(priceId, redirect),
    onSuccess: ({ url }) => {
      leaveApp(url);
    },
  });
}

/** Webhook stamps the page had, as GET users has them now; the stamps the page had when that read fails. */
function stampsNow(brand: string, known: Readonly<Record<string, unknown>> | null): Promise<Readonly<Record<string, unknown>> | null> {
  return fetchLastWebhookUpdate(brand).catch(() => known);
}

/**
 * Manage subscription / Payments and invoices / Access invoices: the page leaves for the billing
 * portal. The variable is the member's webhook stamps as the page last read them (null when
 * unknown). The baseline kept for the way back is read afresh as the member leaves: a purchase's
 * late webhook processed after the page's read would otherwise look, on the way back, like the
 * change made in the portal, and end the update watch before that change's own webhook.
 */
export function usePortal(brand: string) {
  return useMutation({
    meta: errorToast(OPERATIONS.getPortalLink),
    mutationFn: async (known: Readonly<Record<string, unknown>> | null) => {
      const [portal, baseline] = await Promise.all([fetchPortalUrl(), stampsNow(brand, known)]);
      return { ...portal, baseline };
    },
    onSuccess: ({ url, baseline }) => {
      const left: PortalLeft = { openedAt: Date.now(), baseline };
      storage.set(PORTAL_KEY, left);
      leaveApp(url);
    },
  });
}

/**
 * Upgrade to yearly. A refused payment (402) is the page's to tell in its dialog; other refusals
 * are a toast. The answer carries the webhook stamps read just before the upgrade, the update
 * watch's baseline (the variable: the stamps the page had, used when that read fails).
 */
export function useYearlyUpgrade(brand: string) {
  return useMutation({
    meta: errorToast(OPERATIONS.yearlyUpgrade, (error) => error instanceof ApiError && error.status === 402),
    mutationFn: async (known: Readonly<Record<string, unknown>> | null) => {
      const baseline = await stampsNow(brand, known);
      return { ...(await upgradeToYearly()), baseline };
    },
  });
}

/** Copies a payment link to the clipboard; a refused call or clipboard is an error toast. */
export function useCopyPaymentLink() {
  return useMutation({
    meta: errorToast(OPERATIONS.generatePaymentLink),
    mutationFn: async (kind: PaymentLinkKind) => {
      const { link } = await fetchPaymentLink(kind);
      await navigator.clipboard.writeText(link).catch(() => {
        throw new ApiError(0, "Your browser didn't let us copy the link."); // no answer to give: told like a failed call
      });
    },
  });
}
