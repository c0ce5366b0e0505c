import type { InfiniteData } from '@tanstack/react-query';

/**
 * Newest-first lists the API pages with cursors (requests, connections, declines):
 * each answer is one page and `nextCursor` asks for the next. They are read with
 * TanStack Query's `useInfiniteQuery` (`infiniteListOptions` below).
 */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

export type Pages<T> = InfiniteData<Page<T>>;

export function withCursor(path: string, cursor: string | null): string {
  if (cursor === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

/** The paging half of a list's infinite-query options: start without a cursor, follow `nextCursor`. */
export const cursorPaging = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: Page<unknown>): string | null | undefined => last.nextCursor ?? undefined,
  // Lists change between visits (new requests, answers): opening one again asks the server.
  staleTime: 0,
};

/** Every loaded item, in order; an item repeated on a later page (the list moved) shows once. */
export function itemsOf<T extends { readonly id: string | number }>(data: Pages<T> | undefined): readonly T[] {
  if (!data) return [];
  const seen = new Set<string | number>();
  const items: T[] = [];
  for (const page of data.pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/** The same pages with one item replaced (after accept, decline or cancel). */
export function replaceInPages<T extends { readonly id: string | number }>(
  data: Pages<T> | undefined,
  item: T,
): Pages<T> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((existing) => (existing.id === item.id ? item : existing)),
    })),
  };
}
