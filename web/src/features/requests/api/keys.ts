/** Which of a brand's request lists: the ones it received or the ones it sent. */
export type RequestBox = 'received' | 'sent';

/**
 * Query keys of requests and of the lists made of them (connections are accepted
 * requests, declines declined ones; those features read through these keys, so one
 * change to a request reaches every list). The selected brand is the second part.
 */
export const requestKeys = {
  all: ['requests'] as const,
  forBrand: (brand: string) => ['requests', brand] as const,
  /** The Received or Sent list, read page by page. */
  list: (brand: string, box: RequestBox) => ['requests', brand, 'list', box] as const,
  /** One request (its own page). */
  item: (brand: string, requestId: string) => ['requests', brand, 'item', requestId] as const,
  /** The connected brands, page by page. */
  connections: (brand: string) => ['requests', brand, 'connections'] as const,
  /** One connection, by the other brand's id. */
  connection: (brand: string, otherBrandId: string) => ['requests', brand, 'connection', otherBrandId] as const,
  /** Declined by others ('out') or by the brand ('in'), page by page. */
  declines: (brand: string, dir: 'out' | 'in') => ['requests', brand, 'declines', dir] as const,
};

/** The part of a key after the brand: what kind of data it is ('list', 'item', 'connections'...). */
export function requestKeyKind(queryKey: readonly unknown[]): unknown {
  return queryKey[2];
}
