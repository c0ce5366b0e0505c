import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '@/components/ui/Button';
import { useDocumentTitle } from '@/hooks/use-document-title';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Unknown error';
}

/** Last-resort page for errors thrown while loading or rendering a route. */
export function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className="centered-page">
      <div className="card card--narrow">
        <h1 className="card__title">Something went wrong</h1>
        <p className="muted">
          Tandem hit a problem showing this page. Reloading usually fixes it.
        </p>
        <p className="muted small">{describe(error)}</p>
        <div className="actions">
          <Button
            onClick={() => {
              window.location.reload();
            }}
          >
            Reload
          </Button>
          <Link to="/" className="button button--ghost">
            Go home
          </Link>
        </div>
      </div>
    </main>
  );
}
