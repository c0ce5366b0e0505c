import type { RequestItem } from './api/requests';

const TEXT: Record<RequestItem['status'], { received: string; sent: string; tone: string }> = {
  pending: { received: 'Awaiting your reply', sent: 'Awaiting reply', tone: 'pending' },
  awaiting_approval: {
    received: 'Awaiting approval',
    sent: 'Sends once your subscription is approved',
    tone: 'pending',
  },
  accepted: { received: 'Connected', sent: 'Connected', tone: 'accepted' },
  declined: { received: 'Declined', sent: 'Declined', tone: 'declined' },
  cancelled: { received: 'Cancelled by sender', sent: 'Cancelled', tone: 'cancelled' },
  expired: { received: 'Expired', sent: 'Expired', tone: 'declined' },
};

export function statusText(item: Pick<RequestItem, 'status' | 'direction'>): string {
  const entry = TEXT[item.status] as (typeof TEXT)[RequestItem['status']] | undefined;
  return entry ? entry[item.direction] : item.status;
}

export function statusTone(status: RequestItem['status']): string {
  return (TEXT[status] as (typeof TEXT)[RequestItem['status']] | undefined)?.tone ?? 'pending';
}

/**
 * The line a sender reads on a request it did not cancel itself (docs/api.md `cancelReason`):
 * what happened, and that nothing is held against it (no wait before writing again).
 */
export function cancelReasonText(item: Pick<RequestItem, 'status' | 'direction' | 'cancelReason'>): string | null {
  if (item.status !== 'cancelled' || item.direction !== 'sent') return null;
  if (item.cancelReason === 'unavailable') {
    return 'This brand is no longer available, so we cancelled your request. If it was the same subscription month, its credit is back with you.';
  }
  if (item.cancelReason === 'suspended') {
    return 'We cancelled this request when your brand was suspended. If it was the same subscription month, its credit is back with you.';
  }
  return null;
}
