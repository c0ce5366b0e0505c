import type { CreditsInfo } from '@/features/dashboard/api/dashboard';
import { api } from '@/lib/api';

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

export type RequestStatus = 'pending' | 'awaiting_approval' | 'accepted' | 'declined' | 'cancelled';
export type RequestBox = 'received' | 'sent';

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
  readonly isNew?: boolean;
  /** The other brand's contact details, once accepted. */
  readonly contact?: ContactDetails | null;
  /** The recipient's reply when declined (when the server shares it). */
  readonly reply?: string | null;
}

/** One page of a newest-first list; `nextCursor` asks for the next page. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** What accept, decline and cancel answer: the request as it now is and the account's credits. */
export interface RequestChange {
  readonly request: RequestItem;
  readonly credits?: CreditsInfo | null;
}

/** The brand on the other side of a request, seen from the selected brand. */
export function otherBrand(item: RequestItem): BrandSummary {
  return item.direction === 'received' ? item.fromBrand : item.toBrand;
}

export function withCursor(path: string, cursor: string | null): string {
  if (cursor === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

export function listRequests(box: RequestBox, cursor: string | null = null): Promise<Page<RequestItem>> {
  return api.get<Page<RequestItem>>(withCursor(`requests?box=${box}`, cursor));
}

export async function getRequest(requestId: string): Promise<RequestItem> {
  const { request } = await api.get<{ request: RequestItem }>(`requests/${encodeURIComponent(requestId)}`);
  return request;
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
}

export function sendRequest(toBrandId: number, message: string): Promise<SentRequest> {
  return api.post<SentRequest>('requests', { toBrandId, message });
}
