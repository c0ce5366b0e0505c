import { withCursor, type Page, type RequestItem } from '@/features/requests/api/requests';
import { api } from '@/lib/api';

/** out: requests the selected brand sent that were declined; in: ones it declined. */
export type DeclineDirection = 'out' | 'in';

export function listDeclines(dir: DeclineDirection, cursor: string | null = null): Promise<Page<RequestItem>> {
  return api.get<Page<RequestItem>>(withCursor(`declines?dir=${dir}`, cursor));
}
