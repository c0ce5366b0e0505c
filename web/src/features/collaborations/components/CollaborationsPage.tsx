import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { useSelectedBrand } from '@/lib/session';
import {
  collaborationsQuery,
  downloadCsv,
  PHASE_LABELS,
  PHASES,
  type CollabList,
  type CollabSummary,
  type Figures,
  type Phase,
} from '../api/collaborations';
import { PhaseChip } from './parts';
import { formatPlanDate, formatRevenue } from '../format';

/** The charts load with their library only when the page has figures to draw (a chunk of their own). */
const ResultsChart = lazy(() => import('./ResultsChart'));

/**
 * The brand's collaborations and how they performed (/collaborations): by state, the totals of
 * its own recorded results, per partner and per format, over time, and the CSV of it all.
 */
export function CollaborationsPage() {
  const brand = useSelectedBrand();
  const list = useQuery(collaborationsQuery(brand));
  const [exporting, setExporting] = useState<string | null>(null);

  return (
    <div className="collab-page collaborations-page">
      <header className="page-header">
        <h1 className="page-title">Collaborations</h1>
        <p className="page-header__lead">
          Plan collaborations with your connections, run them on a shared checklist and see what each one brought.
        </p>
      </header>
      <div className="collaborations-page__actions">
        <Link className="button button--primary" to="/collaborations/new">
          Plan a collaboration
        </Link>
        <Button
          variant="secondary"
          busy={exporting === 'busy'}
          disabled={!list.data || list.data.items.length === 0}
          onClick={() => {
            setExporting('busy');
            downloadCsv(brand).then(
              () => {
                setExporting(null);
              },
              (error: unknown) => {
                setExporting(describeError(error));
              },
            );
          }}
        >
          Export CSV
        </Button>
      </div>
      {exporting && exporting !== 'busy' && (
        <p role="alert" className="field__error">
          {exporting}
        </p>
      )}
      {list.data ? (
        <Loaded data={list.data} />
      ) : list.isError ? (
        <LoadFailed title="We couldn't load your collaborations" error={list.error} retry={() => void list.refetch()} />
      ) : (
        <div aria-busy="true">
          <PageLoader inline />
        </div>
      )}
    </div>
  );
}

function Loaded({ data }: { readonly data: CollabList }) {
  if (data.items.length === 0) {
    return (
      <div className="empty-state">
        <h2 className="empty-state__title">No collaborations yet</h2>
        <p className="muted">
          Open one of your <Link to="/connections">connections</Link> and choose &ldquo;Plan a collaboration&rdquo;, or
          start from a <Link to="/inspiration/ideas">collab idea</Link>.
        </p>
      </div>
    );
  }
  const { totals } = data;
  const hasResults = totals.overall.withResults > 0;
  return (
    <>
      <Performance data={data} />
      {hasResults && (
        <Suspense fallback={<p className="muted">Loading the charts…</p>}>
          <ResultsChart months={totals.byMonth} formats={totals.byFormat} />
        </Suspense>
      )}
      {PHASES.filter((phase) => totals.byPhase[phase] > 0).map((phase) => (
        <PhaseList key={phase} phase={phase} items={data.items.filter((item) => item.phase === phase)} />
      ))}
    </>
  );
}

function Performance({ data }: { readonly data: CollabList }) {
  const titleId = useId();
  const { overall, byPartner, byFormat } = data.totals;
  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Performance</h2>
      <p className="muted">
        Your own recorded results, from {overall.withResults} of {overall.collaborations} collaborations
        {overall.withResults > 0 && <> · you would partner again after {overall.again}</>}.
      </p>
      <FiguresList figures={overall} />
      <FiguresTable caption="By partner" first="Partner" rows={byPartner.map((row) => [row.partner, row])} />
      <FiguresTable caption="By format" first="Format" rows={byFormat.map((row) => [row.format, row])} />
    </section>
  );
}

function FiguresList({ figures }: { readonly figures: Figures }) {
  return (
    <dl className="collab-figures">
      <div>
        <dt>Reach</dt>
        <dd>{formatNumber(figures.reach)}</dd>
      </div>
      <div>
        <dt>New followers</dt>
        <dd>{formatNumber(figures.followers)}</dd>
      </div>
      <div>
        <dt>Clicks</dt>
        <dd>{formatNumber(figures.clicks)}</dd>
      </div>
      <div>
        <dt>Orders or sign-ups</dt>
        <dd>{formatNumber(figures.orders)}</dd>
      </div>
      <div>
        <dt>Revenue</dt>
        <dd>{formatRevenue(figures.revenue)}</dd>
      </div>
    </dl>
  );
}

function FiguresTable({
  caption,
  first,
  rows,
}: {
  readonly caption: string;
  readonly first: string;
  readonly rows: readonly (readonly [string, Figures])[];
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="collab-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">Collaborations</th>
            <th scope="col">Reach</th>
            <th scope="col">Followers</th>
            <th scope="col">Clicks</th>
            <th scope="col">Orders</th>
            <th scope="col">Revenue</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, figures]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{figures.collaborations}</td>
              <td>{formatNumber(figures.reach)}</td>
              <td>{formatNumber(figures.followers)}</td>
              <td>{formatNumber(figures.clicks)}</td>
              <td>{formatNumber(figures.orders)}</td>
              <td>{formatRevenue(figures.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PhaseList({ phase, items }: { readonly phase: Phase; readonly items: readonly CollabSummary[] }) {
  const titleId = useId();
  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>
        {PHASE_LABELS[phase]} ({items.length})
      </h2>
      <ul className="collab-list" aria-labelledby={titleId}>
        {items.map((item) => (
          <li key={item.id} className="collab-card">
            <p className="collab-card__title">
              <Link to={`/collaborations/${item.id}`}>{item.title}</Link>{' '}
              <PhaseChip phase={item.phase} label={item.phaseLabel} />
              {item.yourTurn && <span className="status-chip status-chip--new">Your turn</span>}
            </p>
            <p className="muted small">
              With {item.partner.name} · {item.format} · {formatPlanDate(item.start)} to {formatPlanDate(item.end)}
              {item.checklistTotal > 0 && (
                <>
                  {' '}
                  · checklist {item.checklistDone}/{item.checklistTotal}
                </>
              )}
            </p>
            {item.endedReason && <p className="small">{item.endedReason}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
