import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, SessionEndedError } from '@/lib/api';
import type { Page } from '../api/requests';

export interface PagedList<T> {
  readonly status: 'loading' | 'success' | 'error';
  readonly items: readonly T[];
  readonly error: string | null;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  /** The error of the last 'Load more', shown beside the button. */
  readonly moreError: string | null;
  readonly loadMore: () => void;
  readonly retry: () => void;
  /** Replaces one loaded item (after accept, decline, cancel). */
  readonly replace: (item: T) => void;
}

interface State<T> {
  readonly key: string;
  readonly status: 'loading' | 'success' | 'error';
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  readonly error: string | null;
  readonly loadingMore: boolean;
  readonly moreError: string | null;
}

function fresh<T>(key: string): State<T> {
  return { key, status: 'loading', items: [], nextCursor: null, error: null, loadingMore: false, moreError: null };
}

/** What to tell the member about a failed load; null when the session ended. */
export function messageOf(error: unknown): string | null {
  // The session ended: the app is already on its way to the sign-in page.
  return error instanceof SessionEndedError ? null : describeError(error);
}

/**
 * A newest-first list read page by page ('Load more' follows `nextCursor`). A new
 * `key` (another list, another brand) starts again; answers for an older key are
 * dropped. A null key waits (e.g. until the brand in the address is selected).
 */
export function usePagedList<T extends { readonly id: string | number }>(
  key: string | null,
  fetchPage: (cursor: string | null) => Promise<Page<T>>,
): PagedList<T> {
  const [state, setState] = useState<State<T>>(() => fresh(key ?? ''));
  const [attempt, setAttempt] = useState(0);
  const fetchRef = useRef(fetchPage);
  const keyRef = useRef(key);
  useEffect(() => {
    fetchRef.current = fetchPage;
    keyRef.current = key;
  });

  if (key !== null && state.key !== key) setState(fresh(key));

  useEffect(() => {
    if (key === null) return undefined;
    let live = true;
    fetchRef.current(null).then(
      (page) => {
        if (live) {
          setState((current) =>
            current.key === key
              ? { ...current, status: 'success', items: page.items, nextCursor: page.nextCursor, error: null }
              : current,
          );
        }
      },
      (error: unknown) => {
        if (live) {
          setState((current) =>
            current.key === key ? { ...current, status: 'error', error: messageOf(error) } : current,
          );
        }
      },
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);

  const loadMore = useCallback(() => {
    const cursor = state.nextCursor;
    const forKey = state.key;
    if (cursor === null || state.loadingMore) return;
    setState((current) => ({ ...current, loadingMore: true, moreError: null }));
    fetchRef.current(cursor).then(
      (page) => {
        setState((current) => {
          if (current.key !== forKey || keyRef.current !== forKey) return current;
          const known = new Set(current.items.map((item) => item.id));
          return {
            ...current,
            items: [...current.items, ...page.items.filter((item) => !known.has(item.id))],
            nextCursor: page.nextCursor,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        setState((current) =>
          current.key === forKey ? { ...current, loadingMore: false, moreError: messageOf(error) } : current,
        );
      },
    );
  }, [state.nextCursor, state.key, state.loadingMore]);

  const retry = useCallback(() => {
    setState((current) => fresh(current.key));
    setAttempt((n) => n + 1);
  }, []);

  const replace = useCallback((item: T) => {
    setState((current) => ({
      ...current,
      items: current.items.map((existing) => (existing.id === item.id ? item : existing)),
    }));
  }, []);

  return {
    status: key === null ? 'loading' : state.status,
    items: state.items,
    error: state.error,
    hasMore: state.nextCursor !== null,
    loadingMore: state.loadingMore,
    moreError: state.moreError,
    loadMore,
    retry,
    replace,
  };
}
