import { PagedSection } from '@/components/ui/ListStates';
import { formatListDateTime, parseDate } from '@/lib/format';
import { useIssueReports } from '../api/console';

/** Issue reports sent from the developer issue box, newest first. */
export function IssuesSection() {
  const list = useIssueReports();
  return (
    <section className="admin__section">
      <PagedSection list={list} noun="issue reports" empty={<p>No issue has been reported.</p>}>
        {(reports) => (
          <ul className="admin__cards">
            {reports.map((report) => {
              const at = parseDate(report.at);
              return (
                <li key={report.id} className="card admin__card">
                  <p className="admin__secondary">
                    {at ? formatListDateTime(at) : report.at} · {report.user.email || report.user.id}
                    {report.path && <> · on <code>{report.path}</code></>}
                  </p>
                  <p className="admin__report">{report.description}</p>
                </li>
              );
            })}
          </ul>
        )}
      </PagedSection>
    </section>
  );
}
