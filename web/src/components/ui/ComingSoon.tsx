import { Link } from 'react-router';

export interface ComingSoonProps {
  /** The area's name, e.g. "Matches". */
  readonly title: string;
  /** Whether to show the way back to the dashboard (not on public pages). */
  readonly showHomeLink?: boolean;
}

/** The shared placeholder for product areas that are still being built. */
export function ComingSoon({ title, showHomeLink = true }: ComingSoonProps) {
  return (
    <section className="coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title" className="page-title">
        {title}
      </h1>
      <div className="card coming-soon__card">
        <span className="coming-soon__badge">Coming soon</span>
        <p className="coming-soon__lead">
          {title} is coming soon. We are putting the finishing touches to it.
        </p>
        {showHomeLink && (
          <Link to="/" className="button button--secondary">
            Back to dashboard
          </Link>
        )}
      </div>
    </section>
  );
}
