import type { RequestItem } from '../api/requests';
import { statusTone, statusText } from '../status';

/** The request's state as a coloured chip. */
export function StatusChip({ item }: { readonly item: Pick<RequestItem, 'status' | 'direction'> }) {
  const tone = statusTone(item.status);
  return <span className={`status-chip status-chip--${tone}`}>{statusText(item)}</span>;
}
