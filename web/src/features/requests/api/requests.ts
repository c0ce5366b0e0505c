import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { applyCredits, refreshDashboard, type CreditsInfo } from '@/lib/session-state';
import { paymentRefusal } from '@/features/subscriptions';
import { api, asBrand } from '@/lib/api';
import { showToast, withNotice } from '@/lib/toast';
import { cursorPaging, replaceInPages, withCursor, type Page, type Pages } from '@/lib/paging';
import { requestKeyKind, requestKeys, type RequestBox } from './keys';

/** Another brand as the request lists show it (docs/api.md `BrandSummary`). */
export interface BrandSummary {
  readonly id: number;
  readonly name: string;
  readonly logoUrl?: string | null;
  readonly category?: string | null;
}

/** How to reach a connected brand; only sent once a request is accepted. */
export interface ContactDetails {
  readonly name?: string | null;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly website?: string | null;
}

export type RequestStatus = 'pending' | 'awaiting_approval' | 'accepted' | 'declined' | 'cancelled' | 'expired';
export type { RequestBox } from './keys';

/** docs/api.md `RequestItem`. */
export interface RequestItem {
  readonly id: string;
  readonly status: RequestStatus;
  readonly direction: RequestBox;
  readonly fromBrand: BrandSummary;
  readonly toBrand: BrandSummary;
  readonly message: string;
  readonly createdAt: string;
  readonly updatedAt?: string | null;
  /** A pending request expires unanswered then (14 days after it was sent); null otherwise. */
  readonly expiresAt?: string | null;
  readonly isNew?: boolean;
  /** The other brand's contact details, once accepted. */
  readonly contact?: ContactDetails | null;
  /**
   * The sender's: why a request it did not cancel itself was cancelled. 'unavailable': the
   * brand it wrote to is no longer available to it (the same for a block and a suspension);
   * 'suspended': the Tandem team suspended the sender's own brand. Null otherwise.
   */
  readonly cancelReason?: 'unavailable' | 'suspended' | null;
  /** The recipient's reply when declined (when the server shares it). */
  readonly reply?: string | null;
  /** A pitch to a Pitch Area feature (a request to the feature's owner). */
  readonly pitch?: { readonly featureId: string; readonly title: string } | null;
}

/** What accept, decline and cancel answer: the request as it now is and the account's credits. */
export interface RequestChange {
  readonly request: RequestItem;
  readonly credits?: CreditsInfo | null;
}

const DAY_MS = 86_400_000;

/** "Expires in 3 days" on a pending request (whole days, rounded up), or null. */
export function expiresLabel(item: Pick<RequestItem, 'status' | 'expiresAt'>, now: number = Date.now()): string | null {
  if (item.status !== 'pending' || !item.expiresAt) return null;
  const at = Date.parse(item.expiresAt);
  if (Number.isNaN(at)) return null;
  const days = Math.ceil((at - now) / DAY_MS);
  if (days <= 0) return 'Expires today';
  return days === 1 ? 'Expires in 1 day' : `Expires in ${days} days`;
}

/** Still waiting for an answer: the only state in which a request can be accepted, declined or cancelled. */
export function isOpen(item: Pick<RequestItem, 'status'>): boolean {
  return item.status === 'pending' || item.status === 'awaiting_approval';
}

/** The brand on the other side of a request, seen from the selected brand. */
export function otherBrand(item: RequestItem): BrandSummary {
  return item.direction === 'received' ? item.fromBrand : item.toBrand;
}

export function listRequests(brand: string, box: RequestBox, cursor: string | null = null): Promise<Page<RequestItem>> {
  return api.get<Page<RequestItem>>(withCursor(`requests?box=${box}`, cursor), asBrand(brand));
}

export async function getRequest(brand: string, requestId: string): Promise<RequestItem> {
  const { request } = await api.get<{ request: RequestItem }>(`requests/${encodeURIComponent(requestId)}`, asBrand(brand));
  return request;
}

/** The Received or Sent list of the selected brand, newest first, page by page. */
export function requestListQuery(brand: string, box: RequestBox) {
  return infiniteQueryOptions({
    queryKey: requestKeys.list(brand, box),
    queryFn: ({ pageParam }) => listRequests(brand, box, pageParam),
    ...cursorPaging,
  });
}

/** One request, for its own page. */
export function requestQuery(brand: string, requestId: string) {
  return queryOptions({
    queryKey: requestKeys.item(brand, requestId),
    queryFn: () => getRequest(brand, requestId),
    staleTime: 0,
  });
}

/**
 * A request changed (accepted, declined, cancelled, or read again after a conflict):
 * every loaded copy shows it as it now is, in the lists and on its own page. What the
 * change moves elsewhere is asked for again: the dashboard (counts, credits), the
 * connections and declines lists.
 */
export function requestChanged(client: QueryClient, item: RequestItem): void {
  const kind = (wanted: string) => ({
    queryKey: requestKeys.all,
    predicate: (query: { queryKey: readonly unknown[] }) => requestKeyKind(query.queryKey) === wanted,
  });
  client.setQueriesData<Pages<RequestItem>>(kind('list'), (data) => replaceInPages(data, item));
  client.setQueriesData<RequestItem>(kind('item'), (current) => (current?.id === item.id ? item : current));
  void refreshDashboard(client);
  void client.invalidateQueries(kind('connections'));
  void client.invalidateQueries(kind('connection'));
  void client.invalidateQueries(kind('declines'));
}

/** What an accepted action answered: the request as it now is, and the account's credits. */
export function useApplyRequestChange(): (change: RequestChange) => void {
  const client = useQueryClient();
  return useCallback(
    (change: RequestChange) => {
      applyCredits(client, change.credits);
      requestChanged(client, change.request);
    },
    [client],
  );
}

export function acceptRequest(requestId: string): Promise<RequestChange> {
  return api.post<RequestChange>(`requests/${encodeURIComponent(requestId)}/accept`);
}

export function declineRequest(requestId: string, reply: string): Promise<RequestChange> {
  const body = reply.trim() === '' ? {} : { reply: reply.trim() };
  return api.post<RequestChange>(`requests/${encodeURIComponent(requestId)}/decline`, body);
}

export function cancelRequest(requestId: string): Promise<RequestChange> {
  return api.post<RequestChange>(`requests/${encodeURIComponent(requestId)}/cancel`);
}

export interface SentRequest {
  readonly request: RequestItem;
  readonly credits?: CreditsInfo | null;
  /** A sender that hides its name, whose message names it: it is shown with the name removed. */
  readonly notice?: string | null;
}

export function sendRequest(toBrandId: number, message: string): Promise<SentRequest> {
  return api.post<SentRequest>('requests', { toBrandId, message });
}

/** A request was sent: the badge shows the credits it holds, the Sent lists and the dashboard are asked for again. */
export function requestSent(client: QueryClient, sent: SentRequest): void {
  applyCredits(client, sent.credits);
  void refreshDashboard(client);
  void client.invalidateQueries({
    queryKey: requestKeys.all,
    predicate: (query) => requestKeyKind(query.queryKey) === 'list' && query.queryKey[3] === 'sent',
  });
}

/**
 * Send a request to a brand (the Connect popup). Sent: a toast, and the badge and the Sent
 * lists show it. A payment refusal asks again for the credits (the overlay shows them as they
 * are now); what else failed is the popup's to show, on the message or above it.
 */
export function useSendRequest(brand: BrandSummary) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => sendRequest(brand.id, message),
    onSuccess: (sent) => {
      requestSent(client, sent);
      showToast({
        tone: 'success',
        title: 'Request sent',
        message: withNotice(
          sent.request.status === 'awaiting_approval'
            ? `It goes to ${brand.name} once your subscription is approved (normally within 24 hours).`
            : `We've let ${brand.name} know. You'll hear from us when they reply.`,
          sent.notice,
        ),
      });
    },
    onError: (failure) => {
      if (paymentRefusal(failure)) void refreshDashboard(client);
    },
  });
}
