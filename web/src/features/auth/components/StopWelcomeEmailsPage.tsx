import { Link, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { useStopWelcomeEmails } from '../api/account';
import { AuthCard } from './AuthCard';
import { useLinkAction } from './use-link-action';

/** /stop-welcome-emails/{email}: the unsubscribe link at the foot of the welcome emails. */
export function StopWelcomeEmailsPage() {
  const email = useParams().email ?? '';
  const state = useLinkAction(useStopWelcomeEmails(), email);
  const home = (
    <Link to="/" className="button button--primary button--block">
      Go to your dashboard
    </Link>
  );
  if (state.status === 'pending') {
    return (
      <AuthCard title="Updating your email settings…">
        <PageLoader inline />
      </AuthCard>
    );
  }
  if (state.status === 'error') {
    return (
      <AuthCard icon="alert" title="We couldn't change your email settings" lead={state.message}>
        <div className="actions">{home}</div>
      </AuthCard>
    );
  }
  return (
    <AuthCard icon="check" title="Welcome emails stopped" lead={state.data.message}>
      <div className="actions">{home}</div>
    </AuthCard>
  );
}
