import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { PagedSection, UnknownBrand } from '@/components/ui/ListStates';
import { menuCountsOf, useDashboard } from '@/lib/session-state';
import { ListTabs } from './ListTabs';
import { RequestCard } from './RequestCard';
import { useRouteBrand } from '../hooks/use-route-brand';
import { useSeenRefresh } from '../hooks/use-seen-refresh';
import { declineListQuery, type DeclineDirection } from '../api/declines';
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
  const list = useInfiniteQuery({
    ...declineListQuery(route.status === 'ready' ? route.brand : '', dir),
    enabled: route.status === 'ready',
  });
  // Listing marks new declines as seen: the menu count drops.
  useSeenRefresh(list, dir === 'out' && counts.declines > 0);

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
                  <RequestCard item={item} actions={false} />
                </li>
              ))}
            </ul>
          )}
        </PagedSection>
      )}
    </div>
  );
}
