/**
 * Query keys of the billing (subscriptions) feature. `brand` is the brand the data is
 * for (the selected brand, as the X-Brand-Id header sends it).
 */
export const billingKeys = {
  all: ['billing'] as const,
  forBrand: (brand: string) => ['billing', brand] as const,
  /** The products answer; `redirect` is the app path checkout returns to ('' for the Billing page). */
  products: (brand: string, redirect: string) => ['billing', brand, 'products', redirect] as const,
  /** One checkout session's payment status (GET stripe/payment-status/{id}). */
  paymentStatus: (brand: string, sessionId: string) => ['billing', brand, 'payment-status', sessionId] as const,
  /** Webhook events still being processed, while one payment waits for them. */
  webhooks: (brand: string, sessionId: string) => ['billing', brand, 'webhooks-in-progress', sessionId] as const,
  /** The dashboard reload that ends one payment's processing. */
  paymentReload: (brand: string, sessionId: string) => ['billing', brand, 'payment-reload', sessionId] as const,
  /** One update watch (GET users polled until a webhook timestamp moves), by its start time. */
  updateWatch: (brand: string, startedAt: number) => ['billing', brand, 'update-watch', startedAt] as const,
};
