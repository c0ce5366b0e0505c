import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PagedSection, UnknownBrand } from '@/components/ui/ListStates';
import { menuCountsOf, useCurrentBrandId, useDashboard } from '@/lib/session-state';
import { useRouteBrand } from '../hooks/use-route-brand';
import { useSeenRefresh } from '../hooks/use-seen-refresh';
import { connectionListQuery } from '../api/connections';
import { ConnectionCard } from './ConnectionCard';

/** Connections (SPEC section 2): /connections, /connections/connected, /connections/{userBrand}. */
export function ConnectionsPage() {
  const { userBrand } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/connections/${brand}`);
  const brandId = useCurrentBrandId();
  const newCount = menuCountsOf(useDashboard().data).connections;
  const list = useInfiniteQuery({
    ...connectionListQuery(route.status === 'ready' ? route.brand : ''),
    enabled: route.status === 'ready',
  });
  // Listing marks new connections as seen: the menu count drops.
  useSeenRefresh(list, newCount > 0);

  return (
    <div className="requests-page">
      <header className="page-header">
        <h1 className="page-title">Connections</h1>
        <p className="page-header__lead">Brands you're connected with, and how to reach them.</p>
      </header>
      {route.status === 'unknown' ? (
        <UnknownBrand backTo="/connections" backLabel="See your connections" />
      ) : (
        <PagedSection
          list={list}
          noun="connections"
          empty={
            <>
              <h2 className="empty-state__title">No connections yet</h2>
              <p className="muted">
                When a brand accepts your request, or you accept theirs, you'll find their contact details here.
              </p>
              <Link to="/matches" className="button button--secondary">
                Go to Matches
              </Link>
            </>
          }
        >
          {(items) => (
            <ul className="card-list" aria-label="Connected brands">
              {items.map((connection) => (
                <li key={connection.id}>
                  <ConnectionCard
                    connection={connection}
                    href={brandId ? `/connections/${brandId}/${connection.brand.id}` : null}
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
