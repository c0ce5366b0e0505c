import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { requestKeys } from './keys';
import type { BrandSummary, ContactDetails } from './requests';
import { api, asBrand } from '@/lib/api';
import { cursorPaging, withCursor, type Page } from '@/lib/paging';

/** docs/api.md: a connected brand (id is the accepted request's id). */
export interface Connection {
  readonly id: string;
  readonly brand: BrandSummary;
  readonly contact: ContactDetails | null;
  readonly connectedAt: string;
  readonly isNew?: boolean;
}

export function listConnections(brand: string, cursor: string | null = null): Promise<Page<Connection>> {
  return api.get<Page<Connection>>(withCursor('connections', cursor), asBrand(brand));
}

/** One connection, by the other brand's id. The answer may wrap it ({connection}) or be the item itself. */
export async function getConnection(brand: string, otherBrandId: string): Promise<Connection> {
  const body = await api.get<Connection | { connection: Connection }>(
    `connections/${encodeURIComponent(otherBrandId)}`,
    asBrand(brand),
  );
  return 'connection' in body ? body.connection : body;
}

/** The connected brands of the selected brand, newest first, page by page. */
export function connectionListQuery(brand: string) {
  return infiniteQueryOptions({
    queryKey: requestKeys.connections(brand),
    queryFn: ({ pageParam }) => listConnections(brand, pageParam),
    ...cursorPaging,
  });
}

/** One connection, for its own page. */
export function connectionQuery(brand: string, otherBrandId: string) {
  return queryOptions({
    queryKey: requestKeys.connection(brand, otherBrandId),
    queryFn: () => getConnection(brand, otherBrandId),
    staleTime: 0,
  });
}
