import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError, SessionEndedError } from '@/lib/api';
import { getRequest, type RequestItem } from '../api/requests';
import { useRouteBrand } from '../hooks/use-route-brand';
import { UnknownBrand } from './ListStates';
import { RequestCard } from './RequestCard';

type State =
  | { readonly status: 'loading' }
  | { readonly status: 'success'; readonly item: RequestItem }
  | { readonly status: 'error'; readonly message: string | null };

/**
 * One received request: /requests/received/{userBrand}/{_id} (the link in the
 * "new request" email) and its payment-processing variants, which show the same page.
 */
export function RequestDetailPage() {
  const { userBrand, _id: requestId = '' } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/requests/received/${brand}`);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const ready = route.status === 'ready';
  const backTo = userBrand ? `/requests/received/${userBrand}` : '/requests/received';

  useEffect(() => {
    if (!ready) return undefined;
    let live = true;
    getRequest(requestId).then(
      (item) => {
        if (live) setState({ status: 'success', item });
      },
      (error: unknown) => {
        if (live) setState({ status: 'error', message: error instanceof SessionEndedError ? null : describeError(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [ready, requestId, attempt]);

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
      ) : state.status === 'loading' ? (
        <PageLoader inline />
      ) : state.status === 'error' ? (
        state.message !== null && (
          <Alert title="We couldn't open this request">
            <p>{state.message}</p>
            <Button
              variant="secondary"
              className="alert__action"
              onClick={() => {
                setState({ status: 'loading' });
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </Button>
          </Alert>
        )
      ) : (
        <RequestCard
          item={state.item}
          onChange={(item) => {
            setState({ status: 'success', item });
          }}
        />
      )}
    </div>
  );
}
