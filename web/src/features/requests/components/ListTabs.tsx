import { Link } from 'react-router';
import { formatCount } from '@/features/navigation';

export interface ListTab {
  readonly id: string;
  readonly label: string;
  readonly to: string;
  /** New items on this tab; shown as a badge (9+ above nine). */
  readonly count?: number;
}

/** Tabs that are links (each list has its own address): the current one is marked for screen readers. */
export function ListTabs({ label, tabs, current }: { readonly label: string; readonly tabs: readonly ListTab[]; readonly current: string }) {
  return (
    <nav className="list-tabs" aria-label={label}>
      <ul className="list-tabs__list">
        {tabs.map((tab) => {
          const count = formatCount(tab.count);
          const active = tab.id === current;
          return (
            <li key={tab.id}>
              <Link to={tab.to} className="list-tabs__tab" aria-current={active ? 'page' : undefined}>
                {tab.label}
                {count !== null && (
                  <span className="list-tabs__badge">
                    <span aria-hidden="true">{count}</span>
                    <span className="visually-hidden"> ({count} new)</span>
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
