import { useMatches } from 'react-router';
import type { SubscriptionType } from './credits';

export interface ProcessingRoute {
  readonly sessionId: string | null;
  readonly type: SubscriptionType | null;
}

/** The deepest matched route marked paymentProcessing (SPEC section 2 route meta), if any. */
export function useProcessingRoute(): ProcessingRoute | null {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const match = matches[index];
    const handle = match?.handle as { paymentProcessing?: unknown; subscriptionType?: unknown } | undefined;
    if (match && handle?.paymentProcessing === true) {
      const type = typeof handle.subscriptionType === 'string' ? (handle.subscriptionType as SubscriptionType) : null;
      return { sessionId: match.params.checkoutSessionId ?? null, type };
    }
  }
  return null;
}
