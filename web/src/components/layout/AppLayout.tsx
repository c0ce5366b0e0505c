import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { setToastAnchor } from '@/components/ui/toast-anchor';
import { Wordmark } from '@/components/ui/Wordmark';

export interface AppLayoutProps {
  /** The main menu, shown as a sidebar (a drawer on small screens). */
  readonly nav: ReactNode;
  /** Right side of the header: brand switcher, user menu. */
  readonly headerEnd?: ReactNode;
  readonly messageBar?: ReactNode;
  readonly footer?: ReactNode;
  /** The sidebar shows icons only. */
  readonly mini?: boolean;
  readonly children: ReactNode;
}

const MENU_ID = 'main-menu';

function LineIcon({ d }: { readonly d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d={d} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * Shell for signed-in pages: message bar, header, main menu and footer. Below
 * 768 px the menu collapses into a drawer opened from the header.
 */
export function AppLayout({ nav, headerEnd, messageBar, footer, mini = false, children }: AppLayoutProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // Following a link closes the drawer.
  const [shownPath, setShownPath] = useState(location.pathname);
  if (shownPath !== location.pathname) {
    setShownPath(location.pathname);
    setDrawerOpen(false);
  }

  useEffect(() => {
    if (!drawerOpen) return undefined;
    document.getElementById(MENU_ID)?.querySelector<HTMLElement>('nav a, nav button')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.body.classList.contains('has-modal')) return;
      setDrawerOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [drawerOpen]);

  return (
    <div className={`app${mini ? ' app--mini' : ''}${drawerOpen ? ' app--drawer-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {messageBar}
      <header className="topbar">
        <button
          ref={toggleRef}
          type="button"
          className="icon-button topbar__menu-toggle"
          data-tour="mobile-menu"
          aria-controls={MENU_ID}
          aria-expanded={drawerOpen}
          aria-label="Open menu"
          onClick={() => {
            setDrawerOpen((open) => !open);
          }}
        >
          <LineIcon d="M4 7h16M4 12h16M4 17h16" />
        </button>
        <Wordmark />
        <div className="topbar__end">{headerEnd}</div>
        {/* Toasts hang just under the header, never over its controls. */}
        <div ref={setToastAnchor} className="topbar__toasts" />
      </header>
      <div className="app__body">
        <div
          className="app__backdrop"
          aria-hidden="true"
          onClick={() => {
            setDrawerOpen(false);
          }}
        />
        <aside id={MENU_ID} className="sidebar" data-tour="general">
          <div className="sidebar__head">
            <span className="sidebar__title">Menu</span>
            <button
              type="button"
              className="icon-button"
              aria-label="Close menu"
              onClick={() => {
                setDrawerOpen(false);
                toggleRef.current?.focus();
              }}
            >
              <LineIcon d="M6 6l12 12M18 6L6 18" />
            </button>
          </div>
          {nav}
        </aside>
        <div className="app__content">
          <main id="main" className="app__main" tabIndex={-1}>
            {children}
          </main>
          {footer}
        </div>
      </div>
    </div>
  );
}
