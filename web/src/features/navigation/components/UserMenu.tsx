import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { UserMenuLink } from '../menu';

/** The user menu closes this long after the mouse leaves it (SPEC section 9). */
export const USER_MENU_CLOSE_DELAY_MS = 2500;

export interface UserMenuProps {
  readonly initials: string;
  readonly name: string;
  readonly email?: string;
  readonly links: readonly UserMenuLink[];
  readonly onHelp: () => void;
  readonly onLogout: () => void;
}

function menuItems(list: HTMLElement | null): HTMLElement[] {
  return list ? Array.from(list.querySelectorAll<HTMLElement>('[role="menuitem"]')) : [];
}

/**
 * The avatar menu button and its menu: Profile, Notifications, Billing, Help,
 * Log out (ARIA menu button: arrows move, Esc closes, Tab leaves).
 */
export function UserMenu({ initials, name, email, links, onHelp, onLogout }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const focusOnOpen = useRef<'first' | 'last'>('first');

  const cancelClose = () => {
    window.clearTimeout(closeTimer.current);
    closeTimer.current = undefined;
  };
  const close = (returnFocus = false) => {
    cancelClose();
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };
  const openMenu = (focus: 'first' | 'last') => {
    cancelClose();
    focusOnOpen.current = focus;
    setOpen(true);
  };

  useEffect(() => {
    if (!open) return undefined;
    const items = menuItems(listRef.current);
    (focusOnOpen.current === 'last' ? items[items.length - 1] : items[0])?.focus();
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
    };
  }, [open]);

  useEffect(() => cancelClose, []);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = menuItems(listRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number> = {
      ArrowDown: (index + 1) % items.length,
      ArrowUp: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    const target = move[event.key];
    if (target !== undefined) {
      event.preventDefault();
      items[target]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close();
    }
  };

  return (
    <div
      ref={rootRef}
      className="user-menu"
      onMouseEnter={cancelClose}
      onMouseLeave={() => {
        if (!open) return;
        cancelClose();
        closeTimer.current = window.setTimeout(() => {
          setOpen(false);
        }, USER_MENU_CLOSE_DELAY_MS);
      }}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget)) close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        data-tour="account"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onKeyDown={onButtonKeyDown}
        onClick={() => {
          if (open) close();
          else openMenu('first');
        }}
      >
        {/* The name comes from the hidden text, not an aria-label: a label that does not
            contain the visible initials fails "label in name" (WCAG 2.5.3). */}
        <span className="avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="visually-hidden">Account menu for {name}</span>
      </button>
      <div className="user-menu__panel" hidden={!open}>
        <div className="user-menu__who">
          <p className="user-menu__name">{name}</p>
          {email && <p className="user-menu__email">{email}</p>}
        </div>
        <ul
          ref={listRef}
          id={menuId}
          role="menu"
          aria-label={`Account menu for ${name}`}
          className="user-menu__list"
          onKeyDown={onMenuKeyDown}
        >
          {links.map((link) => (
            <li key={link.to} role="none">
              <Link
                to={link.to}
                role="menuitem"
                tabIndex={-1}
                className="user-menu__item"
                onClick={() => {
                  close();
                }}
              >
                {link.label}
              </Link>
            </li>
          ))}
          <li role="none">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="user-menu__item"
              onClick={() => {
                // Focus goes back to the menu button first: the Help popup returns it there when
                // it closes (the menu item it was opened from is hidden by then).
                close(true);
                onHelp();
              }}
            >
              Help
            </button>
          </li>
          <li role="none" className="user-menu__separator">
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="user-menu__item"
              onClick={() => {
                close();
                onLogout();
              }}
            >
              Log out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
