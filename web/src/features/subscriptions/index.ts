/** The subscriptions feature's public face: what other features may use. */
export { closeSubscriptionOverlay, openSubscriptionOverlay, paymentRefusal } from './overlay-store';
export { closePaymentComplete, usePaymentComplete } from './payment-complete-store';
export { useRouteSubscriptionType } from './use-subscription-type';
export { CreditsBadge } from './components/CreditsBadge';
export { SubscriptionOverlayHost } from './components/SubscriptionOverlayHost';
export { PaymentProcessingHost } from './components/PaymentProcessingHost';
