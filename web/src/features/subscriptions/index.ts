/** The subscriptions feature's public face: what other features may use. */
export { closeSubscriptionOverlay, openSubscriptionOverlay, paymentRefusal } from './overlay-store';
export { closePaymentComplete, usePaymentComplete } from './payment-complete-store';
export { useRouteSubscriptionType } from './use-subscription-type';
export { CreditsBadge } from './components/CreditsBadge';
export { SubscriptionOverlayHost } from './components/SubscriptionOverlayHost';
// The payment flow loads on demand behind its gate (the shell mounts it as PaymentProcessingHost).
export { PaymentProcessingGate as PaymentProcessingHost } from './components/PaymentProcessingGate';
