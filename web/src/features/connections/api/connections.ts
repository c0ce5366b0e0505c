import type { BrandSummary, ContactDetails, Page } from '@/features/requests/api/requests';
import { withCursor } from '@/features/requests/api/requests';
import { api } from '@/lib/api';

/** docs/api.md: a connected brand (id is the accepted request's id). */
export interface Connection {
  readonly id: string;
  readonly brand: BrandSummary;
  readonly contact: ContactDetails | null;
  readonly connectedAt: string;
  readonly isNew?: boolean;
}

export function listConnections(cursor: string | null = null): Promise<Page<Connection>> {
  return api.get<Page<Connection>>(withCursor('connections', cursor));
}

/** One connection, by the other brand's id. The answer may wrap it ({connection}) or be the item itself. */
export async function getConnection(brandId: string): Promise<Connection> {
  const body = await api.get<Connection | { connection: Connection }>(`connections/${encodeURIComponent(brandId)}`);
  return 'connection' in body ? body.connection : body;
}
