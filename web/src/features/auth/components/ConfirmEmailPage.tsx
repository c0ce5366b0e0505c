import { Link, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { useSession } from '@/lib/session';
import { useConfirmEmail } from '../api/account';
import { AuthCard } from './AuthCard';
import { useLinkAction } from './use-link-action';

/** /confirm-email/{code}: the link in the confirmation email. */
export function ConfirmEmailPage() {
  const code = useParams()['*'] ?? '';
  const signedIn = useSession() !== null;
  const state = useLinkAction(useConfirmEmail(), code);

  const next = signedIn ? (
    <Link to="/" className="button button--primary button--block">
      Go to your dashboard
    </Link>
  ) : (
    <Link to="/login" className="button button--primary button--block">
      Sign in
    </Link>
  );

  if (state.status === 'pending') {
    return (
      <AuthCard title="Confirming your email…">
        <PageLoader inline />
      </AuthCard>
    );
  }
  if (state.status === 'error') {
    return (
      <AuthCard icon="alert" title="We couldn't confirm your email" lead={state.message}>
        <p className="muted small">
          Links expire and work once. {signedIn ? 'You can ask for a new one from the message at the top of your dashboard.' : 'Sign in to ask for a new one.'}
        </p>
        <div className="actions">{next}</div>
      </AuthCard>
    );
  }
  return (
    <AuthCard icon="check" title="Email confirmed" lead={state.data.message || 'Thanks, your email address is confirmed.'}>
      <div className="actions">{next}</div>
    </AuthCard>
  );
}
