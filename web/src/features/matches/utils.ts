import { openSendRequest } from '@/features/requests';
import type { MatchList } from './api/matches';

/** Whole percent between 0 and 100. */
export function percent(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.min(100, Math.max(0, Math.round(score)));
}

/** The list a Matches path shows: /matches/saved[/{userBrand}] is Saved, every other one Potentials. */
export function listOfPath(pathname: string): MatchList {
  return /^\/matches\/saved(\/|$)/.test(pathname) ? 'saved' : 'potentials';
}

/** /matches/{list}/{userBrand} keeps the brand in the tab links; plain paths otherwise. */
export function listPath(list: MatchList, userBrand: string | undefined): string {
  return userBrand === undefined ? `/matches/${list}` : `/matches/${list}/${userBrand}`;
}

/** The Search tab: /matches/search[/{userBrand}], with the search's query string when given. */
export function searchPath(userBrand: string | undefined, query = ''): string {
  const path = userBrand === undefined ? '/matches/search' : `/matches/search/${userBrand}`;
  return query ? `${path}?${query}` : path;
}

/** A brand's page within Matches. */
export function matchDetailPath(brandId: number, userBrand?: string): string {
  return userBrand === undefined ? `/matches/brand/${brandId}` : `/matches/${userBrand}/brand/${brandId}`;
}

/** A link that opens a brand's page within Matches with the request popup open. */
export function sendRequestPath(brandId: number): string {
  return `/matches/brand/${brandId}?request=1`;
}

/**
 * What an existing request between the two brands means for the member. The
 * relation's states: requested-out|in, connected, declined-out|in, cancelled.
 */
export function requestStateText(state: string | null): string | null {
  switch (state) {
    case 'requested-out':
    case 'pending':
    case 'awaiting_approval':
      return 'Request sent: waiting for their answer.';
    case 'requested-in':
      return "They've sent you a request: answer it in Requests.";
    case 'connected':
    case 'accepted':
      return "You're connected.";
    case 'declined-out':
      return 'They declined your request.';
    case 'declined-in':
      return 'You declined their request.';
    default:
      return null;
  }
}

export interface RequestTarget {
  readonly id: number;
  /** The name as shown (masked or not). */
  readonly name: string;
  readonly logoUrl: string | null;
  readonly category: string;
}

/** Opens the request popup of the requests area (credits, message, sending) for this brand. */
export function openRequestFor(brand: RequestTarget, onSent?: (requestId: string) => void): void {
  openSendRequest({ id: brand.id, name: brand.name, logoUrl: brand.logoUrl, category: brand.category }, onSent);
}
