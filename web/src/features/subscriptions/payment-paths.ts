import type { SubscriptionType } from './credits';

/** The account's Billing page, where GET products (no redirect) sends checkout back. */
export const SUBSCRIPTIONS_PATH = '/account/subscriptions/';
const PAYMENT_SEGMENT = /\/payment-processing(?:\/[^/]*)?\/?$/;

/**
 * After payment the member goes back to the parent path (SPEC section 2): the address
 * without its '/payment-processing[/{checkoutSessionId}]' tail.
 */
export function parentPath(pathname: string): string {
  const parent = pathname.replace(PAYMENT_SEGMENT, '');
  if (parent === '' || parent === '/') return '/';
  return parent === '/account/subscriptions' ? SUBSCRIPTIONS_PATH : parent;
}

const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * Where checkout should come back to from a flow (POST products {redirect}): a path whose
 * '/payment-processing/{id}' child is a route of SPEC section 2 — the request itself, the
 * match itself, or the list the member was on. Null on the Billing page (GET products).
 */
export function checkoutRedirect(type: SubscriptionType | null, pathname: string): string | null {
  const path = trim(parentPath(pathname));
  if (type === null || type === 'account') return null;
  if (type === 'request' && /^\/requests\/received\/[^/]+\/[^/]+$/.test(path)) return path;
  if (type === 'match') {
    const match = /^\/matches\/(?:[^/]+\/)?brand\/([^/]+)$/.exec(path);
    if (match?.[1]) return `/matches/brand/${match[1]}`;
  }
  if (type === 'pitch') {
    const pitch = /^\/pitch\/([^/]+)$/.exec(path);
    return pitch?.[1] && pitch[1] !== 'new' && pitch[1] !== 'jump' ? path : '/pitch';
  }
  if (type === 'matches' || type === 'match') return '/matches';
  return '/requests';
}
