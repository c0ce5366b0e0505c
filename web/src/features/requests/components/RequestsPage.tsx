import { useCallback, useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { menuCountsOf, reloadDashboard, useDashboard } from '@/features/dashboard/api/dashboard';
import { useIsFeatureOnly } from '@/lib/login-check';
import { listRequests, type RequestBox, type RequestItem } from '../api/requests';
import { BOXES, boxOf, requestsPath } from '../paths';
import { usePagedList } from '../hooks/use-paged-list';
import { useCurrentBrandId, useRouteBrand } from '../hooks/use-route-brand';
import { ListTabs } from './ListTabs';
import { PagedSection, UnknownBrand } from './ListStates';
import { RequestCard } from './RequestCard';

const EMPTY: Record<RequestBox, { title: string; text: string }> = {
  received: {
    title: 'No requests waiting for you',
    text: 'When a brand asks to collaborate with you, their request shows up here. Ones you accept move to Connections, ones you decline to Declines.',
  },
  sent: {
    title: 'No requests waiting for a reply',
    text: 'Find brands you would like to work with in Matches and send them a request. Accepted ones move to Connections, declined ones to Declines.',
  },
};

/**
 * Requests (SPEC section 2): /requests (received), /requests/received, /requests/sent,
 * /requests/{userBrand} and /requests/{received|sent}/{userBrand} for one of the
 * member's brands. Received and Sent tabs, newest first, 'Load more' for older ones.
 */
export function RequestsPage() {
  const { filter, userBrand } = useParams();
  const { pathname } = useLocation();
  const box = boxOf(pathname, filter);
  const counts = menuCountsOf(useDashboard().data);
  // Feature-only members receive pitches (SPEC: their Requests item is 'Pitches Received').
  const featureOnly = useIsFeatureOnly();
  const brandId = useCurrentBrandId();
  const route = useRouteBrand(userBrand, (brand) => requestsPath(box ?? 'received', brand));
  const key = route.status === 'ready' && box ? `${route.brand}:${box}` : null;
  const fetchPage = useCallback((cursor: string | null) => listRequests(box ?? 'received', cursor), [box]);
  const list = usePagedList<RequestItem>(key, fetchPage);

  // Opening the list marks its new items as seen on the server: refresh the menu counts once.
  const refreshed = useRef<string | null>(null);
  const hasNew = list.items.some((item) => item.isNew === true);
  useEffect(() => {
    if (key === null || list.status !== 'success' || refreshed.current === key) return;
    refreshed.current = key;
    if (hasNew || (box === 'received' && counts.requests > 0)) void reloadDashboard(route.status === 'ready' ? route.brand : 'default');
  }, [key, list.status, hasNew, box, counts.requests, route]);

  if (box === null) return <Navigate to="/404" replace />;

  const tabs = BOXES.map((id) => ({
    id,
    label: id === 'received' ? 'Received' : 'Sent',
    to: requestsPath(id, userBrand),
    count: id === 'received' ? counts.requests : undefined,
  }));

  return (
    <div className="requests-page">
      <header className="page-header">
        <h1 className="page-title">{featureOnly ? 'Pitches Received' : 'Requests'}</h1>
        <p className="page-header__lead">
          {box === 'received'
            ? 'Brands that would like to collaborate with you. Accepting is free.'
            : 'Brands you asked to collaborate. Each open request holds 1 credit.'}
        </p>
      </header>
      <ListTabs label="Request lists" tabs={tabs} current={box} />
      {route.status === 'unknown' ? (
        <UnknownBrand backTo={requestsPath(box)} backLabel="See your requests" />
      ) : (
        <PagedSection
          list={list}
          noun="requests"
          empty={
            <>
              <h2 className="empty-state__title">{EMPTY[box].title}</h2>
              <p className="muted">{EMPTY[box].text}</p>
              <Link to="/matches" className="button button--secondary">
                Go to Matches
              </Link>
            </>
          }
        >
          {(items) => (
            <ul className="card-list" aria-label={box === 'received' ? 'Requests received' : 'Requests sent'}>
              {items.map((item) => (
                <li key={item.id}>
                  <RequestCard
                    item={item}
                    onChange={list.replace}
                    detailHref={box === 'received' && brandId ? `/requests/received/${brandId}/${item.id}` : null}
                  />
                </li>
              ))}
            </ul>
          )}
        </PagedSection>
      )}
    </div>
  );
}
