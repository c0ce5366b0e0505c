import { Link, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { LoadFailed, UnknownBrand } from '@/features/requests/components/ListStates';
import { useOneItem } from '@/features/requests/hooks/use-one-item';
import { useRouteBrand } from '@/features/requests/hooks/use-route-brand';
import { getConnection } from '../api/connections';
import { ConnectionCard } from './ConnectionCard';

/** One connection: /connections/{userBrand}/{_id}, _id being the connected brand. */
export function ConnectionDetailPage() {
  const { userBrand, _id: otherBrandId = '' } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/connections/${brand}`);
  const { state, retry } = useOneItem(getConnection, otherBrandId, route.status === 'ready');

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
      ) : state.status === 'loading' ? (
        <PageLoader inline />
      ) : state.status === 'error' ? (
        <LoadFailed title="We couldn't open this connection" message={state.message} retry={retry} />
      ) : (
        <ConnectionCard connection={state.item} />
      )}
    </div>
  );
}
