import { useMutation, useQueryClient } from '@tanstack/react-query';
import { openSubscriptionOverlay, paymentRefusal } from '@/features/subscriptions';
import { ApiError, messageOf } from '@/lib/api';
import { useSelectedBrand } from '@/lib/session';
import { showToast } from '@/lib/toast';
import {
  acceptRequest,
  cancelRequest,
  declineRequest,
  otherBrand,
  requestChanged,
  requestQuery,
  useApplyRequestChange,
  type RequestItem,
} from './requests';

/** What a member does with an open request. */
export type RequestAction =
  | { readonly kind: 'accept' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'decline'; readonly reply: string };

/** A conflict (409) or a request gone (404): the request changed meanwhile. */
function isStale(failure: unknown): boolean {
  return failure instanceof ApiError && (failure.status === 409 || failure.status === 404);
}

/**
 * A refused decline the dialog shows, and stays open to try again (not a changed request,
 * a payment refusal or an ended session: those close it).
 */
export function declineStaysOpen(failure: unknown): boolean {
  return failure instanceof ApiError && messageOf(failure) !== null && !isStale(failure) && failure.status !== 402;
}

/**
 * Accept, cancel or decline one request (SPEC section 5). An answer updates every loaded copy
 * of the request and the credits, and says so in a toast. A payment refusal opens the
 * subscription overlay; a conflict or a request gone fetches it as it now is. What else
 * failed is the card's to show (`requestActionError`).
 */
export function useRequestAction(item: RequestItem) {
  const client = useQueryClient();
  const selected = useSelectedBrand();
  const applyChange = useApplyRequestChange();
  const brand = otherBrand(item);
  return useMutation({
    mutationFn: (action: RequestAction) => {
      switch (action.kind) {
        case 'accept':
          return acceptRequest(item.id);
        case 'cancel':
          return cancelRequest(item.id);
        case 'decline':
          return declineRequest(item.id, action.reply);
      }
    },
    onSuccess: (change, action) => {
      applyChange(change);
      switch (action.kind) {
        case 'accept':
          showToast({ tone: 'success', title: `You're connected with ${brand.name}`, message: 'Their contact details are on the request. Say hello!' });
          break;
        case 'cancel':
          showToast({ title: 'Request cancelled', message: `Your request to ${brand.name} was withdrawn.` });
          break;
        case 'decline':
          showToast({ title: 'Request declined', message: `We've let ${brand.name} know.` });
          break;
      }
    },
    onError: (failure) => {
      const refusal = paymentRefusal(failure);
      if (refusal) {
        openSubscriptionOverlay({ reason: refusal.reason, type: 'request' });
        return;
      }
      if (isStale(failure)) {
        client.query(requestQuery(selected, item.id)).then(
          (fresh) => {
            requestChanged(client, fresh);
          },
          () => undefined,
        );
      }
    },
  });
}

/**
 * What the card says about a failed action: the server's message, or null when nothing is
 * to show there (the session ended, a payment refusal opened the overlay, or the decline
 * dialog showed it).
 */
export function requestActionError(failure: unknown, action: RequestAction | undefined): string | null {
  if (failure === null || paymentRefusal(failure) !== null) return null;
  if (action?.kind === 'decline' && declineStaysOpen(failure)) return null;
  return messageOf(failure);
}
