import { useQuery } from '@tanstack/react-query';
import { CalendarCollaborations } from '@/features/collaborations';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { ListTabs } from '@/features/requests';
import { formatOrdinalDate } from '@/lib/format';
import { useSelectedBrand } from '@/lib/session';
import {
  calendarDay,
  calendarQuery,
  momentIdeasPath,
  type CalendarMoment,
  type CollabCalendar,
} from '../api/collab';
import { INSPIRATION_TABS } from './CollabIdeasPage';

const COUNTRIES = ['GB', 'US'] as const;

/** The country and year from the address; anything else (a stale link) falls back to the default. */
function countryOf(raw: string | null): string | null {
  const value = raw?.toUpperCase() ?? null;
  return value !== null && (COUNTRIES as readonly string[]).includes(value) ? value : null;
}

function yearOf(raw: string | null): number | null {
  const value = raw !== null && /^\d{4}$/.test(raw) ? Number(raw) : null;
  return value;
}

/**
 * The collab calendar (/inspiration/calendar): the retail and cultural moments of the year in
 * the UK and the US, each with when to start planning and the Collab Ideas that suit it. The
 * default view is what is coming up, the next first; "Whole year" shows the year month by month.
 * Country, view and year live in the address (?country=GB&view=year&year=2027).
 */
export function CalendarPage() {
  const brand = useSelectedBrand();
  const [params, setParams] = useSearchParams();
  const countryId = useId();
  const yearId = useId();
  const country = countryOf(params.get('country'));
  const view = params.get('view') === 'year' ? 'year' : 'upcoming';
  const year = view === 'year' ? yearOf(params.get('year')) : null;
  const calendar = useQuery(calendarQuery(brand, { country, year }));
  const data = calendar.data;

  const change = (name: 'country' | 'view' | 'year', value: string | null) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        if (name === 'view' && value !== 'year') next.delete('year');
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="collab-page">
      <header className="page-header">
        <h1 className="page-title">Collab Ideas</h1>
        <p className="page-header__lead">
          The moments of the year shoppers plan around, in the UK and the US, with how far ahead to start and the
          ideas that suit each one. Good collaborations take time: the lead time is when to message your partner.
        </p>
      </header>
      <ListTabs label="Collab Ideas sections" tabs={INSPIRATION_TABS} current="calendar" />
      <CalendarCollaborations />
      <form
        className="collab-filters"
        aria-label="Calendar options"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <div className="field">
          <label htmlFor={countryId} className="field__label">
            Country
          </label>
          <select
            id={countryId}
            className="field__input"
            value={country ?? ''}
            onChange={(event) => {
              change('country', event.target.value);
            }}
          >
            <option value="">UK and US</option>
            <option value="GB">UK</option>
            <option value="US">US</option>
          </select>
        </div>
        <div className="segmented" role="group" aria-label="Show">
          <button
            type="button"
            className="segmented__option"
            aria-pressed={view === 'upcoming'}
            onClick={() => {
              change('view', null);
            }}
          >
            Coming up
          </button>
          <button
            type="button"
            className="segmented__option"
            aria-pressed={view === 'year'}
            onClick={() => {
              change('view', 'year');
            }}
          >
            Whole year
          </button>
        </div>
        {view === 'year' && data && (
          <div className="field">
            <label htmlFor={yearId} className="field__label">
              Year
            </label>
            <select
              id={yearId}
              className="field__input"
              value={String(data.year)}
              onChange={(event) => {
                change('year', event.target.value);
              }}
            >
              {data.years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </div>
        )}
      </form>
      {data === undefined ? (
        calendar.isError ? (
          <LoadFailed title="We couldn't load the calendar" error={calendar.error} retry={() => void calendar.refetch()} />
        ) : (
          <div aria-busy="true">
            <PageLoader inline />
          </div>
        )
      ) : view === 'upcoming' ? (
        <Upcoming data={data} />
      ) : (
        <WholeYear data={data} />
      )}
    </div>
  );
}

function Upcoming({ data }: { readonly data: CollabCalendar }) {
  if (data.upcoming.length === 0) {
    return <p className="empty-state">Nothing in the next six months. See the whole year for what comes later.</p>;
  }
  return (
    <section aria-labelledby="coming-up">
      <h2 id="coming-up" className="calendar-heading">
        Coming up in the next six months
      </h2>
      <ul className="moment-list" aria-label="Moments coming up">
        {data.upcoming.map((moment) => (
          <MomentCard key={`${moment.slug}-${moment.date}`} moment={moment} data={data} />
        ))}
      </ul>
    </section>
  );
}

function WholeYear({ data }: { readonly data: CollabCalendar }) {
  return (
    <div className="calendar-year">
      {data.months.map((month) => (
        <section key={month.month} aria-labelledby={`month-${month.month}`} className="calendar-month">
          <h2 id={`month-${month.month}`} className="calendar-heading">
            {month.name} {data.year}
          </h2>
          {month.moments.length === 0 ? (
            <p className="muted">No moment marked this month: a good time for evergreen ideas.</p>
          ) : (
            <ul className="moment-list" aria-label={`Moments in ${month.name}`}>
              {month.moments.map((moment) => (
                <MomentCard key={moment.slug} moment={moment} data={data} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

/** '14th February', or '1st January to 31st January' for a moment that lasts. */
function when(moment: CalendarMoment, today: Date): string {
  const start = calendarDay(moment.date);
  const first = formatOrdinalDate(start, today);
  return moment.end === moment.date ? first : `${first} to ${formatOrdinalDate(calendarDay(moment.end), today)}`;
}

const DAY_MS = 86_400_000;

/** Where a member stands with a moment today: under way, passed, plan now, or plan by a date. */
function planning(moment: CalendarMoment, today: Date): string {
  const start = calendarDay(moment.date);
  const end = calendarDay(moment.end);
  if (start <= today && today <= end) return 'Under way now';
  if (end < today) return 'Passed for this year';
  const from = calendarDay(moment.planFrom);
  if (from > today) return `Start planning by ${formatOrdinalDate(from, today)}`;
  const days = Math.round((start.getTime() - today.getTime()) / DAY_MS); // whole local days (DST-safe rounding)
  return days === 1 ? 'Starts tomorrow: plan now' : `Starts in ${days} days: plan now`;
}

function MomentCard({ moment, data }: { readonly moment: CalendarMoment; readonly data: CollabCalendar }) {
  const titleId = useId();
  const today = calendarDay(data.today);
  return (
    <li className="moment-card" aria-labelledby={titleId}>
      <div className="moment-card__head">
        <h3 id={titleId} className="moment-card__title">
          {moment.name}
        </h3>
        <p className="moment-card__date">{when(moment, today)}</p>
      </div>
      <p className="moment-card__chips">
        {moment.countries.map((code) => (
          <span key={code} className="benefit-chip">
            {data.countries[code] ?? code}
          </span>
        ))}
        <span className="effort-chip">{moment.lead}</span>
        <span className="muted small">{planning(moment, today)}</span>
      </p>
      <p className="moment-card__text">{moment.description}</p>
      <p className="moment-card__label" aria-hidden="true">
        Ideas that suit it
      </p>
      <ul className="moment-card__idea-names" aria-label={`Ideas for ${moment.name}`}>
        {moment.ideas.map((slug) => (
          <li key={slug}>
            <Link to={`/inspiration/ideas?idea=${encodeURIComponent(slug)}`}>{data.ideas[slug] ?? slug}</Link>
          </li>
        ))}
      </ul>
      <p className="moment-card__ideas">
        <Link to={momentIdeasPath(moment.slug)} className="moment-card__cta">
          See the {moment.ideas.length} ideas for {moment.name}
        </Link>
      </p>
    </li>
  );
}
