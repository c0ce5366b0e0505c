import { Link } from 'react-router';

/** The Tandem logo: two linked rings and the name, linking home. */
export function Wordmark() {
  return (
    <Link to="/" className="wordmark" aria-label="Tandem home">
      <svg className="wordmark__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <circle cx="12" cy="16" r="6" fill="none" stroke="#fff" strokeWidth="3" />
        <circle cx="20" cy="16" r="6" fill="none" stroke="#c7d2fe" strokeWidth="3" />
      </svg>
      <span className="wordmark__text">Tandem</span>
    </Link>
  );
}
