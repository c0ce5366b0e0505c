import { useCallback, useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { menuCountsOf, reloadDashboard, useDashboard } from '@/features/dashboard/api/dashboard';
import { PagedSection, UnknownBrand } from '@/features/requests/components/ListStates';
import { usePagedList } from '@/features/requests/hooks/use-paged-list';
import { useCurrentBrandId, useRouteBrand } from '@/features/requests/hooks/use-route-brand';
import { listConnections, type Connection } from '../api/connections';
import { ConnectionCard } from './ConnectionCard';

/** Connections (SPEC section 2): /connections, /connections/connected, /connections/{userBrand}. */
export function ConnectionsPage() {
  const { userBrand } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/connections/${brand}`);
  const brandId = useCurrentBrandId();
  const newCount = menuCountsOf(useDashboard().data).connections;
  const key = route.status === 'ready' ? route.brand : null;
  const fetchPage = useCallback((cursor: string | null) => listConnections(cursor), []);
  const list = usePagedList<Connection>(key, fetchPage);

  // Listing marks new connections as seen: refresh the menu counts once.
  const refreshed = useRef<string | null>(null);
  const hasNew = list.items.some((item) => item.isNew === true);
  useEffect(() => {
    if (key === null || list.status !== 'success' || refreshed.current === key) return;
    refreshed.current = key;
    if (hasNew || newCount > 0) void reloadDashboard(key);
  }, [key, list.status, hasNew, newCount]);

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
