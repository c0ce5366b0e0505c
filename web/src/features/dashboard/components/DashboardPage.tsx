import { useDocumentTitle } from '@/hooks/use-document-title';
import { useSession } from '@/lib/session';

/** Placeholder dashboard: the real one (menu counts, credits, matches) comes later. */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const session = useSession();
  const firstName = session?.firstName;

  return (
    <section className="stack">
      <h1 className="page-title">{firstName ? `Welcome back, ${firstName}` : 'Dashboard'}</h1>
      <div className="card">
        <h2 className="card__subtitle">Your dashboard is on its way</h2>
        <p className="muted">
          Matches, requests and credits will appear here. For now you are signed in and ready to go.
        </p>
      </div>
    </section>
  );
}
