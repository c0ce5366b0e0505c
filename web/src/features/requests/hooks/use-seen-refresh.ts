import { useEffect, useRef } from 'react';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useRefreshDashboard } from '@/lib/session-state';
import { itemsOf, type Pages } from '@/lib/paging';

/**
 * Reading a list marks its new items as seen on the server: after each answer that had
 * new items (or when the menu still counts some), the dashboard is asked for again so
 * the menu counts drop.
 */
export function useSeenRefresh<T extends { readonly id: string | number; readonly isNew?: boolean }>(
  list: UseInfiniteQueryResult<Pages<T>>,
  menuCountsNew: boolean,
): void {
  const refresh = useRefreshDashboard();
  // A copy shown from the cache was counted when it arrived; only new answers count.
  const handled = useRef(list.dataUpdatedAt);
  const hasNew = itemsOf(list.data).some((item) => item.isNew === true);
  const answeredAt = list.isSuccess ? list.dataUpdatedAt : 0;

  useEffect(() => {
    if (answeredAt === 0 || answeredAt === handled.current) return;
    handled.current = answeredAt;
    if (hasNew || menuCountsNew) void refresh();
  }, [answeredAt, hasNew, menuCountsNew, refresh]);
}
