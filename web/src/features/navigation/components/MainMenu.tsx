import { Link, useLocation } from 'react-router';
import { formatCount, isCurrentSection, type MenuAction, type MenuEntry, type MenuLink } from '../menu';
import { Icon } from './Icon';

export interface MainMenuProps {
  readonly entries: readonly MenuEntry[];
  readonly mini: boolean;
  readonly onToggleMini: () => void;
  readonly onAction: (id: MenuAction['id']) => void;
}

function Count({ value }: { readonly value: number | undefined }) {
  const text = formatCount(value);
  if (text === null) return null;
  return (
    <span className="menu__count">
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden"> ({text} new)</span>
    </span>
  );
}

/** Menu items the tips tour points at (its steps' data-tour anchors). */
const TOUR_ANCHORS: Readonly<Record<string, string>> = { pitch: 'jobs', profile: 'about' };

function LinkItem({ item, mini, current }: { readonly item: MenuLink; readonly mini: boolean; readonly current: boolean }) {
  return (
    <Link
      to={item.to}
      className="menu__item"
      data-tour={TOUR_ANCHORS[item.id]}
      aria-current={current ? 'page' : undefined}
      title={mini ? item.label : undefined}
    >
      <Icon name={item.icon} />
      <span className="menu__label">{item.label}</span>
      <Count value={item.count} />
    </Link>
  );
}

/** The main menu (SPEC section 2). */
export function MainMenu({ entries, mini, onToggleMini, onAction }: MainMenuProps) {
  const { pathname } = useLocation();
  return (
    <nav className="menu" aria-label="Main">
      <ul className="menu__list">
        {entries.map((entry) => (
          <li key={entry.id}>
            {entry.kind === 'link' ? (
              <LinkItem item={entry} mini={mini} current={isCurrentSection(entry, pathname)} />
            ) : (
              <button
                type="button"
                className="menu__item"
                title={mini ? entry.label : undefined}
                onClick={() => {
                  onAction(entry.id);
                }}
              >
                <Icon name={entry.icon} />
                <span className="menu__label">{entry.label}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className="menu__footer">
        <button
          type="button"
          className="menu__item menu__mini-toggle"
          aria-pressed={mini}
          title={mini ? 'Mini Menu' : undefined}
          onClick={onToggleMini}
        >
          <Icon name={mini ? 'expand' : 'collapse'} />
          <span className="menu__label">Mini Menu</span>
        </button>
      </div>
    </nav>
  );
}
