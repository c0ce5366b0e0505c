import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { useSelectedBrand } from '@/lib/session';
import { calendarFeedQuery, collaborationsQuery, useCalendarFeed } from '../api/collaborations';
import { formatPlanDate, localToday } from '../format';
import { PhaseChip } from './parts';

const SHOWN = new Set(['proposed', 'agreed', 'live']);

/**
 * On the Collab calendar: the brand's collaborations still to come or under way, beside the
 * moments, and its private calendar feed (a secret URL to subscribe to from Google or Apple
 * Calendar, shown once; a new one stops the old).
 */
export function CalendarCollaborations() {
  const brand = useSelectedBrand();
  const titleId = useId();
  const list = useQuery(collaborationsQuery(brand));
  const today = localToday();
  const items = (list.data?.items ?? [])
    .filter((item) => SHOWN.has(item.phase) && item.end >= today)
    .sort((x, y) => x.start.localeCompare(y.start));
  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Your collaborations</h2>
      {list.data && items.length === 0 && (
        <p className="muted">
          Nothing planned yet. <Link to="/collaborations/new">Plan a collaboration</Link> around one of the moments
          below.
        </p>
      )}
      {items.length > 0 && (
        <ul className="collab-list" aria-labelledby={titleId}>
          {items.map((item) => (
            <li key={item.id} className="collab-card">
              <p className="collab-card__title">
                <Link to={`/collaborations/${item.id}`}>{item.title}</Link>{' '}
                <PhaseChip phase={item.phase} label={item.phaseLabel} />
              </p>
              <p className="muted small">
                {formatPlanDate(item.start)} to {formatPlanDate(item.end)} · with {item.partner.name}
                {item.moment && <> · for {item.moment.name}</>}
              </p>
            </li>
          ))}
        </ul>
      )}
      <FeedPanel brand={brand} />
    </section>
  );
}

function FeedPanel({ brand }: { readonly brand: string }) {
  const feed = useQuery(calendarFeedQuery(brand));
  const change = useCalendarFeed(brand);
  const [url, setUrl] = useState<string | null>(null);
  const urlId = useId();
  if (!feed.data) return null;
  return (
    <div className="collab-feed">
      <h3>Calendar feed</h3>
      <p className="muted">
        Subscribe from Google or Apple Calendar to see your collaborations and their due dates there. The link is
        private: anyone who has it can read the feed.
      </p>
      {url && (
        <div className="field">
          <label className="field__label" htmlFor={urlId}>
            Your feed link (copy it now: it is shown once)
          </label>
          <input id={urlId} className="field__input" readOnly value={url} onFocus={(event) => { event.target.select(); }} />
        </div>
      )}
      <div className="collab-actions">
        <Button
          variant="secondary"
          busy={change.isPending}
          onClick={() => {
            change.mutate('renew', {
              onSuccess: (made) => {
                setUrl(made.url ?? null);
              },
            });
          }}
        >
          {feed.data.active ? 'Make a new link' : 'Get a calendar link'}
        </Button>
        {feed.data.active && (
          <Button
            variant="ghost"
            busy={change.isPending}
            onClick={() => {
              change.mutate('revoke', {
                onSuccess: () => {
                  setUrl(null);
                },
              });
            }}
          >
            Turn the link off
          </Button>
        )}
      </div>
      {feed.data.active && !url && <p className="muted small">A link is on. Making a new one stops the old one.</p>}
    </div>
  );
}
