import type { OverlayReason, SubscriptionType } from './credits';
import { createOpenStore } from '@/lib/store';

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

const overlay = createOpenStore<OverlayRequest>();

export function openSubscriptionOverlay(request: Partial<OverlayRequest> = {}): void {
  overlay.open({ reason: request.reason ?? null, type: request.type ?? null, requiredCredits: request.requiredCredits });
}

export function closeSubscriptionOverlay(): void {
  overlay.close();
}

export function useSubscriptionOverlay(): OverlayRequest | null {
  return overlay.use();
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
