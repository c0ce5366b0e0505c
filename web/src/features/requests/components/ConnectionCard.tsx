import { useId } from 'react';
import { Link } from 'react-router';
import { BrandIdentity } from './BrandIdentity';
import { ContactDetailsList } from './ContactDetailsList';
import { formatListDateTime, formatOrdinalDate, parseDate } from '@/lib/format';
import type { Connection } from '../api/connections';

/** A connected brand: who they are, how to reach them, and since when. */
export function ConnectionCard({ connection, href }: { readonly connection: Connection; readonly href?: string | null }) {
  const titleId = useId();
  const date = parseDate(connection.connectedAt);
  return (
    <article className={`request-card${connection.isNew ? ' request-card--new' : ''}`} aria-labelledby={titleId}>
      <div className="request-card__head">
        <BrandIdentity brand={connection.brand} titleId={titleId} />
        <div className="request-card__chips">
          {connection.isNew && <span className="status-chip status-chip--new">New</span>}
          <span className="status-chip status-chip--accepted">Connected</span>
        </div>
      </div>
      <p className="request-card__meta">
        {date && (
          <>
            Connected on{' '}
            <time dateTime={date.toISOString()} title={formatListDateTime(date)}>
              {formatOrdinalDate(date)}
            </time>
          </>
        )}
        {href && (
          <>
            {date && ' · '}
            <Link to={href} className="request-card__open">
              Open<span className="visually-hidden"> connection with {connection.brand.name}</span>
            </Link>
          </>
        )}
      </p>
      {connection.contact ? (
        <ContactDetailsList contact={connection.contact} />
      ) : (
        <p className="muted small">They have not added contact details yet.</p>
      )}
    </article>
  );
}
