import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import type { PagedList } from '../hooks/use-paged-list';

export interface PagedSectionProps<T> {
  readonly list: PagedList<T>;
  /** What the list is, for the loading and error texts ("requests"). */
  readonly noun: string;
  readonly empty: ReactNode;
  readonly children: (items: readonly T[]) => ReactNode;
}

/** Loading, error, empty, the items, and 'Load more' while the server has more pages. */
export function PagedSection<T>({ list, noun, empty, children }: PagedSectionProps<T>) {
  if (list.status === 'loading') {
    return (
      <div aria-busy="true">
        <PageLoader inline />
      </div>
    );
  }
  if (list.status === 'error') {
    if (list.error === null) return null;
    return (
      <Alert title={`We couldn't load your ${noun}`}>
        <p>{list.error}</p>
        <Button variant="secondary" className="alert__action" onClick={list.retry}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (list.items.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <>
      {children(list.items)}
      {(list.hasMore || list.moreError) && (
        <div className="load-more">
          {list.moreError && <p className="field__error" role="alert">{list.moreError}</p>}
          {list.hasMore && (
            <Button variant="secondary" busy={list.loadingMore} onClick={list.loadMore}>
              Load more
            </Button>
          )}
        </div>
      )}
    </>
  );
}

/** A detail page's item that could not be loaded, with 'Try again' (nothing when signed out). */
export function LoadFailed({ title, message, retry }: { readonly title: string; readonly message: string | null; readonly retry: () => void }) {
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
