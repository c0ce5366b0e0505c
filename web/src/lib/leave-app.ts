/**
 * Full-page navigation away from the app (Stripe Checkout, the billing portal). One
 * place, so tests can watch where the member was sent (the test DOM cannot navigate).
 */
export function leaveApp(url: string): void {
  window.location.assign(url);
}
