import { Outlet } from 'react-router';
import { Wordmark } from '@/components/ui/Wordmark';

/** Shell for public pages: a header with the wordmark; no footer links (SPEC section 2). */
export function PublicLayout() {
  return (
    <div className="shell shell--public">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <Wordmark />
      </header>
      <main id="main" className="shell__main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
