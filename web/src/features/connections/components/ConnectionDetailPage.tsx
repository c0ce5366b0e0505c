import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { UnknownBrand } from '@/features/requests/components/ListStates';
import { useRouteBrand } from '@/features/requests/hooks/use-route-brand';
import { describeError, SessionEndedError } from '@/lib/api';
import { getConnection, type Connection } from '../api/connections';
import { ConnectionCard } from './ConnectionCard';

type State =
  | { readonly status: 'loading' }
  | { readonly status: 'success'; readonly connection: Connection }
  | { readonly status: 'error'; readonly message: string | null };

/** One connection: /connections/{userBrand}/{_id}, _id being the connected brand. */
export function ConnectionDetailPage() {
  const { userBrand, _id: otherBrandId = '' } = useParams();
  const route = useRouteBrand(userBrand, (brand) => `/connections/${brand}`);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const ready = route.status === 'ready';

  useEffect(() => {
    if (!ready) return undefined;
    let live = true;
    getConnection(otherBrandId).then(
      (connection) => {
        if (live) setState({ status: 'success', connection });
      },
      (error: unknown) => {
        if (live) setState({ status: 'error', message: error instanceof SessionEndedError ? null : describeError(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [ready, otherBrandId, attempt]);

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
        state.message !== null && (
          <Alert title="We couldn't open this connection">
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
        <ConnectionCard connection={state.connection} />
      )}
    </div>
  );
}
