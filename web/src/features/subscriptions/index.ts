/** The subscriptions feature's public face: what other features may use. */
export { openSubscriptionOverlay, paymentRefusal } from './overlay-store';
export { useRouteSubscriptionType } from './use-subscription-type';
export { CreditsBadge } from './components/CreditsBadge';
export { SubscriptionOverlayHost } from './components/SubscriptionOverlayHost';
