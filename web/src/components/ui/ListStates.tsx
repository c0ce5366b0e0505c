import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { messageOf } from '@/lib/api';
import { itemsOf, type Pages } from '@/lib/paging';

export interface PagedSectionProps<T extends { readonly id: string | number }> {
  /** The list's infinite query (useInfiniteQuery over the API's cursors; disabled until it may load). */
  readonly list: UseInfiniteQueryResult<Pages<T>>;
  /** What the list is, for the loading and error texts ("requests"). */
  readonly noun: string;
  readonly empty: ReactNode;
  readonly children: (items: readonly T[]) => ReactNode;
}

/** Loading, error, empty, the items, and 'Load more' while the server has more pages. */
export function PagedSection<T extends { readonly id: string | number }>({ list, noun, empty, children }: PagedSectionProps<T>) {
  if (list.data === undefined && !list.isError) {
    return (
      <div aria-busy="true">
        <PageLoader inline />
      </div>
    );
  }
  // A failed first load; a failed refresh keeps the list loaded earlier.
  if (list.data === undefined) {
    const message = messageOf(list.error);
    if (message === null) return null;
    return (
      <Alert title={`We couldn't load your ${noun}`}>
        <p>{message}</p>
        <Button variant="secondary" className="alert__action" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const items = itemsOf(list.data);
  if (items.length === 0) return <div className="empty-state">{empty}</div>;
  const moreError = list.isFetchNextPageError ? messageOf(list.error) : null;
  return (
    <>
      {children(items)}
      {(list.hasNextPage || moreError) && (
        <div className="load-more">
          {moreError && (
            <p className="field__error" role="alert">
              {moreError}
            </p>
          )}
          {list.hasNextPage && (
            <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              Load more
            </Button>
          )}
        </div>
      )}
    </>
  );
}

/** A detail page's item that could not be loaded, with 'Try again' (nothing when signed out). */
export function LoadFailed({ title, error, retry }: { readonly title: string; readonly error: unknown; readonly retry: () => void }) {
  const message = messageOf(error);
  if (message === null) return null;
  return (
    <Alert title={title}>
      <p>{message}</p>
      <Button variant="secondary" className="alert__action" onClick={retry}>
        Try again
      </Button>
    </Alert>
  );
}

/** The page for a brand in the address that is not one of the member's. */
export function UnknownBrand({ backTo, backLabel }: { readonly backTo: string; readonly backLabel: string }) {
  return (
    <Alert title="That brand isn't one of yours">
      <p>
        The link names a brand your account doesn't manage. <Link to={backTo}>{backLabel}</Link>
      </p>
    </Alert>
  );
}
