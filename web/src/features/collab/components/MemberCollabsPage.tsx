import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { BrandLogo } from '@/features/brands';
import { formatPlanDate, money } from '@/features/collaborations';
import { ListTabs } from '@/features/requests';
import { formatNumber, formatOrdinalDate, parseDate } from '@/lib/format';
import { useSelectedBrand } from '@/lib/session';
import { memberCollabsQuery, type FigureValue, type MemberCollab, type SharedCollaborationResults } from '../api/collab';
import { INSPIRATION_TABS } from './CollabIdeasPage';

/**
 * Member collabs (/inspiration/member-collabs): collaborations between members, shown because
 * both brands agreed (GET collab/examples), newest first. A brand shares one from its connection's
 * page; until the other brand agrees it is not listed here.
 */
export function MemberCollabsPage() {
  const brand = useSelectedBrand();
  const list = useQuery(memberCollabsQuery(brand));
  const items = list.data?.items;

  return (
    <div className="collab-page">
      <header className="page-header">
        <h1 className="page-title">Collab Ideas</h1>
        <p className="page-header__lead">
          What members have done together, told by the two brands. Each one is shown because both brands agreed.
        </p>
      </header>
      <ListTabs label="Collab Ideas sections" tabs={INSPIRATION_TABS} current="member-collabs" />
      {items === undefined ? (
        list.isError ? (
          <LoadFailed title="We couldn't load member collabs" error={list.error} retry={() => void list.refetch()} />
        ) : (
          <div aria-busy="true">
            <PageLoader inline />
          </div>
        )
      ) : (
        <>
          <p className="muted">
            Worked with a brand you met here? Open the connection in <Link to="/connections">Connections</Link> and
            choose &ldquo;Share this collab&rdquo;. It appears here once the other brand agrees, and either of you can
            take it down at any time.
          </p>
          {items.length === 0 ? (
            <div className="empty-state">
              <h2 className="empty-state__title">No member collabs yet</h2>
              <p className="muted">Be the first to share one.</p>
            </div>
          ) : (
            <ul className="member-collab-list" aria-label="Member collabs">
              {items.map((item) => (
                <MemberCollabCard key={item._id} item={item} />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function MemberCollabCard({ item }: { readonly item: MemberCollab }) {
  const titleId = useId();
  const shared = parseDate(item.sharedAt);
  return (
    <li className="member-collab" aria-labelledby={titleId}>
      <div className="member-collab__logos" aria-hidden="true">
        {item.brands.map((b) => (
          <BrandLogo key={b.id} name={b.name} logoUrl={b.logoUrl} />
        ))}
      </div>
      <h2 id={titleId} className="member-collab__title">
        {item.name}
      </h2>
      <p className="member-collab__meta muted small">
        {/* Brands without a category: the line starts with the date, no stray separator. */}
        {[...item.brands.map((b) => b.category), shared ? `shared ${formatOrdinalDate(shared)}` : '']
          .filter(Boolean)
          .join(' · ')}
        {item.yours && <span className="status-chip status-chip--accepted">Your brand</span>}
      </p>
      <p className="member-collab__summary">{item.summary}</p>
      {item.idea && (
        <p className="member-collab__idea">
          Collab idea: <Link to={`/inspiration/ideas?idea=${encodeURIComponent(item.idea.slug)}`}>{item.idea.title}</Link>
        </p>
      )}
      {item.collaboration && <SharedResults collab={item.collaboration} brands={item.brands.map((b) => b.name)} />}
    </li>
  );
}

function figure(value: FigureValue): string {
  if (value === null) return '–';
  return typeof value === 'number' ? formatNumber(value) : money(value.minor, value.currency);
}

/** A shared collaboration's plan line and the figures both brands allowed, side by side. */
function SharedResults({ collab, brands }: { readonly collab: SharedCollaborationResults; readonly brands: readonly string[] }) {
  return (
    <div className="member-collab__results">
      <p className="muted small">
        {collab.title} · {collab.format} · {formatPlanDate(collab.start)} to {formatPlanDate(collab.end)}
      </p>
      {collab.figures.length > 0 && (
        <table className="member-collab__figures">
          <caption className="visually-hidden">Results of {collab.title}</caption>
          <thead>
            <tr>
              <th scope="col">Result</th>
              {brands.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {collab.figures.map((row) => (
              <tr key={row.figure}>
                <th scope="row">{row.label}</th>
                {row.values.map((value, index) => (
                  <td key={brands[index] ?? index}>{figure(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
