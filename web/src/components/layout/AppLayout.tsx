import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Wordmark } from '@/components/ui/Wordmark';

/** Shell for signed-in pages. The main menu and user menu arrive with later issues. */
export function AppLayout({ actions }: { readonly actions?: ReactNode }) {
  return (
    <div className="shell shell--app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <Wordmark />
        {actions && <div className="shell__actions">{actions}</div>}
      </header>
      <main id="main" className="shell__main shell__main--wide" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
