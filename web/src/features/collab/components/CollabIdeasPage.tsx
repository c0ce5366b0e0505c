import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { ListTabs } from '@/features/requests';
import { useSelectedBrand } from '@/lib/session';
import { formatOrdinalDate } from '@/lib/format';
import {
  calendarDay,
  calendarQuery,
  collabQuery,
  filterIdeas,
  type CalendarMoment,
  type CollabCalendar,
  type CollabList,
} from '../api/collab';
import { IdeaPopup } from './IdeaPopup';

export const INSPIRATION_TABS = [
  { id: 'ideas', label: 'Ideas', to: '/inspiration/ideas' },
  { id: 'calendar', label: 'Calendar', to: '/inspiration/calendar' },
  { id: 'member-collabs', label: 'Member collabs', to: '/inspiration/member-collabs' },
] as const;

/** A filter from the address, kept only when the list knows it (a stale link shows everything). */
function known(value: string | null, labels: Readonly<Record<string, string>> | undefined): string | null {
  return value !== null && labels !== undefined && Object.hasOwn(labels, value) ? value : null;
}

/** The calendar moment a link names (?moment=), as it falls next: coming up, else this year's. */
function findMoment(calendar: CollabCalendar | undefined, slug: string | null): CalendarMoment | null {
  if (calendar === undefined || slug === null) return null;
  return (
    calendar.upcoming.find((m) => m.slug === slug) ??
    calendar.months.flatMap((month) => month.moments).find((m) => m.slug === slug) ??
    null
  );
}

/**
 * Collab Ideas (SPEC sections 1 and 2, /inspiration and /inspiration/ideas): the 26 ideas,
 * filtered by effort and benefit, each opening its popup. Filters and the open idea live in
 * the address (?effort=&benefit=&idea=), so a link opens the same view. A calendar link adds
 * ?moment=<slug>: only the ideas that suit that moment, under a note naming it.
 */
export function CollabIdeasPage() {
  const brand = useSelectedBrand();
  const list = useQuery(collabQuery(brand));
  const [params, setParams] = useSearchParams();
  const effortId = useId();
  const benefitId = useId();
  const data = list.data;
  const effort = known(params.get('effort'), data?.efforts);
  const benefit = known(params.get('benefit'), data?.benefits);
  const open = data?.ideas.find((idea) => idea.slug === params.get('idea'));
  const momentSlug = params.get('moment');
  const calendar = useQuery({ ...calendarQuery(brand), enabled: momentSlug !== null });
  const moment = findMoment(calendar.data, momentSlug);

  const change = (name: 'effort' | 'benefit' | 'idea' | 'moment', value: string | null) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: name !== 'idea' },
    );
  };

  return (
    <div className="collab-page">
      <header className="page-header">
        <h1 className="page-title">Collab Ideas</h1>
        <p className="page-header__lead">
          Ways to work with another brand, from a quick newsletter swap to a co-branded product: when each works,
          the steps, the pitfalls and a template to start from.
        </p>
      </header>
      <ListTabs label="Collab Ideas sections" tabs={INSPIRATION_TABS} current="ideas" />
      {moment && (
        <div className="moment-note" role="note" aria-label={`Ideas for ${moment.name}`}>
          <p>
            <strong>Ideas for {moment.name}</strong> ({formatOrdinalDate(calendarDay(moment.date), calendarDay(calendar.data?.today ?? moment.date))}
            ). {moment.lead}.
          </p>
          <p className="moment-note__actions">
            <Link to="/inspiration/calendar">Back to the calendar</Link>
            <Button
              variant="secondary"
              onClick={() => {
                change('moment', null);
              }}
            >
              Show all ideas
            </Button>
          </p>
        </div>
      )}
      {data === undefined || (momentSlug !== null && calendar.isPending) ? (
        list.isError ? (
          <LoadFailed title="We couldn't load the collab ideas" error={list.error} retry={() => void list.refetch()} />
        ) : (
          <div aria-busy="true">
            <PageLoader inline />
          </div>
        )
      ) : (
        <>
          <form
            className="collab-filters"
            aria-label="Filter ideas"
            onSubmit={(event) => {
              event.preventDefault();
            }}
          >
            <div className="field">
              <label htmlFor={effortId} className="field__label">
                Effort
              </label>
              <select
                id={effortId}
                className="field__input"
                value={effort ?? ''}
                onChange={(event) => {
                  change('effort', event.target.value);
                }}
              >
                <option value="">Any effort</option>
                {Object.entries(data.efforts).map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={benefitId} className="field__label">
                Good for
              </label>
              <select
                id={benefitId}
                className="field__input"
                value={benefit ?? ''}
                onChange={(event) => {
                  change('benefit', event.target.value);
                }}
              >
                <option value="">Any benefit</option>
                {Object.entries(data.benefits).map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          </form>
          <IdeaGrid
            data={data}
            effort={effort}
            benefit={benefit}
            only={moment?.ideas ?? null}
            onOpen={(slug) => {
              change('idea', slug);
            }}
            onClear={() => {
              setParams({}, { replace: true });
            }}
          />
          {open && (
            <IdeaPopup
              idea={open}
              labels={data}
              onClose={() => {
                change('idea', null);
              }}
            />
          )}
        </>
      )}
    </div>
  );
}

interface IdeaGridProps {
  readonly data: CollabList;
  readonly effort: string | null;
  readonly benefit: string | null;
  /** A calendar moment's ideas (slugs): only these are shown. */
  readonly only: readonly string[] | null;
  readonly onOpen: (slug: string) => void;
  readonly onClear: () => void;
}

function IdeaGrid({ data, effort, benefit, only, onOpen, onClear }: IdeaGridProps) {
  const pool = only === null ? data.ideas : data.ideas.filter((idea) => only.includes(idea.slug));
  const shown = filterIdeas(pool, { effort, benefit });
  const filtered = effort !== null || benefit !== null || only !== null;
  return (
    <>
      <p className="collab-count" role="status">
        {filtered ? `${shown.length} of ${data.ideas.length} ideas` : `${data.ideas.length} ideas`}
      </p>
      {shown.length === 0 ? (
        <div className="empty-state">
          <h2 className="empty-state__title">No idea matches both filters</h2>
          <p className="muted">Try another effort or benefit.</p>
          <Button variant="secondary" onClick={onClear}>
            Show all ideas
          </Button>
        </div>
      ) : (
        <ul className="idea-grid" aria-label="Collab ideas">
          {shown.map((idea) => (
            <li key={idea.slug} className="idea-card">
              <img className="idea-card__image" src={idea.image} alt="" width={320} height={180} loading="lazy" />
              <h2 className="idea-card__title">
                <button
                  type="button"
                  className="idea-card__open"
                  onClick={() => {
                    onOpen(idea.slug);
                  }}
                >
                  {idea.title}
                </button>
              </h2>
              <p className="idea-card__meta">
                <span className={`effort-chip effort-chip--${idea.effort}`}>{data.efforts[idea.effort]}</span>
              </p>
              <ul className="benefit-list" aria-label="Benefits">
                {idea.benefits.map((key) => (
                  <li key={key} className="benefit-chip">
                    {data.benefits[key] ?? key}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
