import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <div className="card card--narrow not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 className="card__title">Page not found</h1>
      <p className="muted">
        The page you were looking for doesn’t exist or has moved.
      </p>
      <Link to="/" className="button button--primary">
        Back to home
      </Link>
    </div>
  );
}
