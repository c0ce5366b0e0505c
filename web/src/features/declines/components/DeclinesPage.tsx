import { useCallback, useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { menuCountsOf, reloadDashboard, useDashboard } from '@/features/dashboard/api/dashboard';
import type { RequestItem } from '@/features/requests/api/requests';
import { ListTabs } from '@/features/requests/components/ListTabs';
import { PagedSection, UnknownBrand } from '@/features/requests/components/ListStates';
import { RequestCard } from '@/features/requests/components/RequestCard';
import { usePagedList } from '@/features/requests/hooks/use-paged-list';
import { useRouteBrand } from '@/features/requests/hooks/use-route-brand';
import { listDeclines, type DeclineDirection } from '../api/declines';
import { declinesPath, directionOf } from '../paths';

const COPY: Record<DeclineDirection, { label: string; lead: string; emptyTitle: string; emptyText: string }> = {
  out: {
    label: 'Declined by others',
    lead: 'Requests you sent that the other brand declined. The credit comes back if they declined within the same subscription month.',
    emptyTitle: 'None of your requests were declined',
    emptyText: "When a brand declines a request of yours, you'll see it here.",
  },
  in: {
    label: 'Declined by you',
    lead: 'Requests you received and declined.',
    emptyTitle: "You haven't declined any requests",
    emptyText: 'Requests you decline are kept here.',
  },
};

/** Declines (SPEC section 2): two lists, per brand when the address names one. */
export function DeclinesPage() {
  const { userBrand } = useParams();
  const dir = directionOf(useLocation().pathname);
  const counts = menuCountsOf(useDashboard().data);
  const route = useRouteBrand(userBrand, (brand) => declinesPath(dir, brand));
  const key = route.status === 'ready' ? `${route.brand}:${dir}` : null;
  const fetchPage = useCallback((cursor: string | null) => listDeclines(dir, cursor), [dir]);
  const list = usePagedList<RequestItem>(key, fetchPage);

  const refreshed = useRef<string | null>(null);
  const hasNew = list.items.some((item) => item.isNew === true);
  useEffect(() => {
    if (key === null || list.status !== 'success' || refreshed.current === key) return;
    refreshed.current = key;
    if (hasNew || (dir === 'out' && counts.declines > 0)) void reloadDashboard(route.status === 'ready' ? route.brand : 'default');
  }, [key, list.status, hasNew, dir, counts.declines, route]);

  const tabs = (['out', 'in'] as const).map((id) => ({
    id,
    label: COPY[id].label,
    to: declinesPath(id, userBrand),
    count: id === 'out' ? counts.declines : undefined,
  }));

  return (
    <div className="requests-page">
      <header className="page-header">
        <h1 className="page-title">Declines</h1>
        <p className="page-header__lead">{COPY[dir].lead}</p>
      </header>
      <ListTabs label="Decline lists" tabs={tabs} current={dir} />
      {route.status === 'unknown' ? (
        <UnknownBrand backTo={declinesPath(dir)} backLabel="See your declines" />
      ) : (
        <PagedSection
          list={list}
          noun="declines"
          empty={
            <>
              <h2 className="empty-state__title">{COPY[dir].emptyTitle}</h2>
              <p className="muted">{COPY[dir].emptyText}</p>
              <Link to="/requests" className="button button--secondary">
                Go to Requests
              </Link>
            </>
          }
        >
          {(items) => (
            <ul className="card-list" aria-label={COPY[dir].label}>
              {items.map((item) => (
                <li key={item.id}>
                  <RequestCard item={item} onChange={list.replace} actions={false} />
                </li>
              ))}
            </ul>
          )}
        </PagedSection>
      )}
    </div>
  );
}
