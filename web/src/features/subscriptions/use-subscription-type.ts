import { useMatches } from 'react-router';
import type { SubscriptionType } from './credits';

const TYPES = new Set<string>(['account', 'pitch', 'request', 'requests', 'matches', 'match']);

/** The subscription type of the current route (route meta, SPEC "Subscriptions screen"). */
export function useRouteSubscriptionType(): SubscriptionType | null {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const type = (matches[index]?.handle as { subscriptionType?: unknown } | undefined)?.subscriptionType;
    if (typeof type === 'string' && TYPES.has(type)) return type as SubscriptionType;
  }
  return null;
}
