import { Link } from 'react-router';

export interface ComingSoonProps {
  /** The page's title, as the browser tab shows it, e.g. "Collab calendar". */
  readonly title: string;
  /** The product area the page belongs to, e.g. "Collab Ideas"; shown above the title when different. */
  readonly area?: string;
  /** Whether to show the way back to the dashboard (not on public pages). */
  readonly showHomeLink?: boolean;
}

/** The shared placeholder for product areas that are still being built. */
export function ComingSoon({ title, area, showHomeLink = true }: ComingSoonProps) {
  return (
    <section className="coming-soon" aria-labelledby="coming-soon-title">
      <header>
        {area && area !== title && <p className="coming-soon__area">{area}</p>}
        <h1 id="coming-soon-title" className="page-title">
          {title}
        </h1>
      </header>
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
