import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { useCollaborationFigures } from '../api/console';

const STATUS_LABELS: Readonly<Record<string, string>> = {
  proposed: 'Proposed (waiting for an answer)',
  agreed: 'Agreed (planned, live or ended)',
  'results-in': 'Results in from both sides',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/** Collaborations between members (issue 41): how many are in each state, and this month's count. */
export function CollaborationsSection() {
  const figures = useCollaborationFigures();
  if (figures.isError) {
    return <LoadFailed title="We couldn't load the figures" error={figures.error} retry={() => void figures.refetch()} />;
  }
  if (!figures.data) return <PageLoader inline />;
  const { byStatus, thisMonth, byMonth } = figures.data;
  return (
    <section className="admin__section">
      <p>
        <strong>{thisMonth}</strong> proposed this month.
      </p>
      <dl className="collab-figures" aria-label="Collaborations by state">
        {Object.entries(STATUS_LABELS).map(([status, label]) => (
          <div key={status}>
            <dt>{label}</dt>
            <dd>{byStatus[status] ?? 0}</dd>
          </div>
        ))}
      </dl>
      {byMonth.length > 0 && (
        <table className="collab-table">
          <caption>Proposed by month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Proposed</th>
            </tr>
          </thead>
          <tbody>
            {byMonth.map((row) => (
              <tr key={row.month}>
                <th scope="row">{`${row.month.slice(0, 4)}-${row.month.slice(4)}`}</th>
                <td>{row.proposed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
