import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { LoadFailed, UnknownBrand } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { useRouteBrand } from '../hooks/use-route-brand';
import { connectionQuery } from '../api/connections';
import { ConnectionCard } from './ConnectionCard';
import { ShareCollabPanel } from './ShareCollabPanel';

/** One connection: /connections/{userBrand}/{_id}, _id being the connected brand. */
export function ConnectionDetailPage() {
  const { userBrand, _id: otherBrandId = '' } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/connections/${brand}`);
  const ready = route.status === 'ready';
  const connection = useQuery({ ...connectionQuery(ready ? route.brand : '', otherBrandId), enabled: ready });

  return (
    <div className="requests-page">
      <p className="back-link">
        <Link to={userBrand ? `/connections/${userBrand}` : '/connections'}>← All connections</Link>
      </p>
      <header className="page-header">
        <h1 className="page-title">Connection</h1>
      </header>
      {route.status === 'unknown' ? (
        <UnknownBrand backTo="/connections" backLabel="See your connections" />
      ) : connection.data ? (
        <>
          <ConnectionCard connection={connection.data} />
          <p>
            <Link className="button button--primary" to={`/collaborations/new?with=${encodeURIComponent(otherBrandId)}`}>
              Plan a collaboration
            </Link>
          </p>
          {route.status === 'ready' && (
            <ShareCollabPanel brand={route.brand} otherBrandId={otherBrandId} otherName={connection.data.brand.name} />
          )}
        </>
      ) : connection.isError ? (
        <LoadFailed title="We couldn't open this connection" error={connection.error} retry={() => void connection.refetch()} />
      ) : (
        <PageLoader inline />
      )}
    </div>
  );
}
