import { Link, useLocation } from 'react-router';
import { ADMIN_MENU } from '../menu';

function ShieldIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false">
      <path
        d="M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6z M9 12l2 2 4-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The admin menu under the main menu (admins only; SPEC section 6). */
export function AdminMenu({ mini }: { readonly mini: boolean }) {
  const { pathname } = useLocation();
  return (
    <nav className="menu admin-menu" aria-label="Admin">
      <p className="admin-menu__heading" title={mini ? 'Admin' : undefined}>
        <ShieldIcon />
        <span className="menu__label">Admin</span>
      </p>
      <ul className="menu__list">
        {ADMIN_MENU.map((item) => {
          const current = pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.id === 'users' && pathname === '/admin');
          return (
            <li key={item.id}>
              <Link
                to={item.to}
                className="menu__item admin-menu__item"
                aria-current={current ? 'page' : undefined}
                title={mini ? item.label : undefined}
              >
                <span className="admin-menu__initial" aria-hidden="true">
                  {item.mark}
                </span>
                <span className="menu__label">{item.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
