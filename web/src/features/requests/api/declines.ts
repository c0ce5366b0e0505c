import { infiniteQueryOptions } from '@tanstack/react-query';
import { requestKeys } from './keys';
import type { RequestItem } from './requests';
import { api, asBrand } from '@/lib/api';
import { cursorPaging, withCursor, type Page } from '@/lib/paging';

/** out: requests the selected brand sent that were declined; in: ones it declined. */
export type DeclineDirection = 'out' | 'in';

export function listDeclines(brand: string, dir: DeclineDirection, cursor: string | null = null): Promise<Page<RequestItem>> {
  return api.get<Page<RequestItem>>(withCursor(`declines?dir=${dir}`, cursor), asBrand(brand));
}

/** One of the two decline lists of the selected brand, newest first, page by page. */
export function declineListQuery(brand: string, dir: DeclineDirection) {
  return infiniteQueryOptions({
    queryKey: requestKeys.declines(brand, dir),
    queryFn: ({ pageParam }) => listDeclines(brand, dir, pageParam),
    ...cursorPaging,
  });
}
