import { Outlet } from 'react-router';
import { Wordmark } from '@/components/ui/Wordmark';
import { Footer } from './Footer';

export interface PublicLayoutProps {
  /** Footer links are hidden on public routes, except where a page asks for them. */
  readonly withFooter?: boolean;
}

/** Shell for public pages: a header with the wordmark (SPEC section 2). */
export function PublicLayout({ withFooter = false }: PublicLayoutProps) {
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
      {withFooter && <Footer />}
    </div>
  );
}
