import { Link } from 'react-router';
import { PagedSection } from '@/components/ui/ListStates';
import { formatListDateTime, parseDate } from '@/lib/format';
import { useAuditLog, type AuditEntry } from '../api/console';
import { actionLabel } from '../menu';

/** What the entry was about: the API names it (a member, a feature, the site settings). */
function Subject({ entry }: { readonly entry: AuditEntry }) {
  const subject = entry.subject;
  if (!subject) return <span className="admin__secondary">{entry.target}</span>;
  if (!subject.href) return <span className="admin__secondary">{subject.label}</span>;
  return (
    <Link className="admin__secondary" to={subject.href}>
      {subject.label}
    </Link>
  );
}

function details(entry: AuditEntry): string {
  if (entry.facts) return entry.facts.join(' · ');
  return Object.entries(entry.details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean)}`)
    .join(' · ');
}

/** Every admin action, newest first: who, when, what. */
export function AuditSection() {
  const list = useAuditLog();
  return (
    <section className="admin__section">
      <PagedSection list={list} noun="audit log" empty={<p>No admin action has been recorded yet.</p>}>
        {(entries) => (
          <div className="admin__table-wrap">
            <table className="admin__table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => {
                  const at = parseDate(entry.at);
                  return (
                    <tr key={entry.id}>
                      <td data-label="When">{at ? formatListDateTime(at) : entry.at}</td>
                      <td data-label="Who">{entry.actor.email || entry.actor.id}</td>
                      <th scope="row" data-label="What">
                        <span className="admin__primary">{actionLabel(entry.action)}</span>
                        <Subject entry={entry} />
                      </th>
                      <td data-label="Details" className="admin__details">
                        {details(entry)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </PagedSection>
    </section>
  );
}
