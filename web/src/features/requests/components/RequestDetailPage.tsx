import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { TrustActions } from '@/features/trust';
import { otherBrand, requestQuery } from '../api/requests';
import { useRouteBrand } from '../hooks/use-route-brand';
import { LoadFailed, UnknownBrand } from '@/components/ui/ListStates';
import { RequestCard } from './RequestCard';

/**
 * One received request: /requests/received/{userBrand}/{_id} (the link in the
 * "new request" email) and its payment-processing variants, which show the same page.
 */
export function RequestDetailPage() {
  const { userBrand, _id: requestId = '' } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/requests/received/${brand}`);
  const ready = route.status === 'ready';
  const backTo = userBrand ? `/requests/received/${userBrand}` : '/requests/received';
  const request = useQuery({ ...requestQuery(ready ? route.brand : '', requestId), enabled: ready });
  const navigate = useNavigate();
  const other = request.data ? otherBrand(request.data) : null;

  return (
    <div className="requests-page">
      <p className="back-link">
        <Link to={backTo}>← All received requests</Link>
      </p>
      <header className="page-header">
        <h1 className="page-title">Request</h1>
      </header>
      {route.status === 'unknown' ? (
        <UnknownBrand backTo="/requests/received" backLabel="See your requests" />
      ) : request.data ? (
        <>
          <RequestCard item={request.data} />
          {other && (
            <section className="card request-trust" aria-label="Safety">
              <p className="muted">Something wrong with this request?</p>
              <TrustActions brandId={other.id} brandName={other.name} onBlocked={() => void navigate(backTo, { replace: true })} />
            </section>
          )}
        </>
      ) : request.isError ? (
        <LoadFailed title="We couldn't open this request" error={request.error} retry={() => void request.refetch()} />
      ) : (
        <PageLoader inline />
      )}
    </div>
  );
}
