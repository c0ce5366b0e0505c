import type { DeclineDirection } from './api/declines';
import type { RequestBox } from './api/requests';

export const BOXES: readonly RequestBox[] = ['received', 'sent'];

/** Which list an address shows: /requests[/received|/sent][/{userBrand}]; null for an unknown filter. */
export function boxOf(pathname: string, filter: string | undefined): RequestBox | null {
  if (filter !== undefined) return (BOXES as readonly string[]).includes(filter) ? (filter as RequestBox) : null;
  return pathname.split('/')[2] === 'sent' ? 'sent' : 'received';
}

export function requestsPath(box: RequestBox, userBrand?: string): string {
  return userBrand ? `/requests/${box}/${userBrand}` : `/requests/${box}`;
}

/** /declines[/{userBrand}] shows your declined requests (out); /declines/in the ones you declined. */
export function directionOf(pathname: string): DeclineDirection {
  return pathname.split('/')[2] === 'in' ? 'in' : 'out';
}

export function declinesPath(dir: DeclineDirection, userBrand?: string): string {
  return userBrand ? `/declines/${dir}/${userBrand}` : `/declines/${dir}`;
}
