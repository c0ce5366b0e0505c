import { useSyncExternalStore } from 'react';
import type { OverlayReason, SubscriptionType } from './credits';

/**
 * The subscription overlay (SPEC "Subscriptions screen"), opened from any flow
 * that needs a subscription or more credits: openSubscriptionOverlay({ reason }).
 * <SubscriptionOverlayHost /> (mounted by the app shell) shows it.
 */
export interface OverlayRequest {
  readonly reason: OverlayReason | null;
  readonly type: SubscriptionType | null;
  /** Credits the action needs: product options giving fewer are hidden (default by type). */
  readonly requiredCredits?: number;
}

let current: OverlayRequest | null = null;
const listeners = new Set<() => void>();

function publish(next: OverlayRequest | null): void {
  current = next;
  listeners.forEach((listener) => {
    listener();
  });
}

export function openSubscriptionOverlay(request: Partial<OverlayRequest> = {}): void {
  publish({ reason: request.reason ?? null, type: request.type ?? null, requiredCredits: request.requiredCredits });
}

export function closeSubscriptionOverlay(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const get = () => current;

export function useSubscriptionOverlay(): OverlayRequest | null {
  return useSyncExternalStore(subscribe, get, get);
}

/**
 * Whether a failed call was a 402 (docs/api.md: out of credits, or no subscription):
 * the overlay should open, with the reason its code names (null for another code).
 */
export function paymentRefusal(error: unknown): { readonly reason: OverlayReason | null } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (status !== 402) return null;
  const code = (body as { code?: unknown } | null)?.code;
  return { reason: code === 'out_of_credits' || code === 'no_subscription' ? code : null };
}
