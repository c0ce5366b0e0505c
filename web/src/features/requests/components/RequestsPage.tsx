import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { menuCountsOf, useCurrentBrandId, useDashboard } from '@/lib/session-state';
import { useIsFeatureOnly } from '@/lib/login-check';
import { requestListQuery, type RequestBox } from '../api/requests';
import { useSeenRefresh } from '../hooks/use-seen-refresh';
import { BOXES, boxOf, requestsPath } from '../paths';
import { useRouteBrand } from '../hooks/use-route-brand';
import { ListTabs } from './ListTabs';
import { PagedSection, UnknownBrand } from '@/components/ui/ListStates';
import { RequestCard } from './RequestCard';

/** A feature-only member's empty Pitches Received (they have no Matches, Connections or Declines). */
const NO_PITCHES = {
  title: 'No pitches yet',
  text: 'When a brand pitches to your featured brand, their pitch shows up here for you to accept or decline.',
};

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
 * Feature-only members see it as 'Pitches Received': received only, no Sent tab and no way
 * to Matches (their account does not include them; /requests/sent sends them back here).
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
  const ready = route.status === 'ready' && box !== null;
  const list = useInfiniteQuery({
    ...requestListQuery(route.status === 'ready' ? route.brand : '', box ?? 'received'),
    enabled: ready,
  });
  // Opening the list marks its new items as seen on the server: the menu counts drop.
  useSeenRefresh(list, box === 'received' && counts.requests > 0);

  if (box === null) return <Navigate to="/404" replace />;

  const empty = featureOnly ? NO_PITCHES : EMPTY[box];
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
          {featureOnly
            ? 'Brands that pitched to your featured brand. Accepting is free.'
            : box === 'received'
              ? 'Brands that would like to collaborate with you. Accepting is free.'
              : 'Brands you asked to collaborate. Each open request holds 1 credit.'}
        </p>
      </header>
      {!featureOnly && <ListTabs label="Request lists" tabs={tabs} current={box} />}
      {route.status === 'unknown' ? (
        <UnknownBrand backTo={requestsPath(box)} backLabel="See your requests" />
      ) : (
        <PagedSection
          list={list}
          noun="requests"
          empty={
            <>
              <h2 className="empty-state__title">{empty.title}</h2>
              <p className="muted">{empty.text}</p>
              {!featureOnly && (
                <Link to="/matches" className="button button--secondary">
                  Go to Matches
                </Link>
              )}
            </>
          }
        >
          {(items) => (
            <ul
              className="card-list"
              aria-label={featureOnly ? 'Pitches received' : box === 'received' ? 'Requests received' : 'Requests sent'}
            >
              {items.map((item) => (
                <li key={item.id}>
                  <RequestCard
                    item={item}
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
