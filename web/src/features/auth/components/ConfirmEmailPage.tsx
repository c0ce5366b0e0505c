import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { markEmailConfirmed } from '@/lib/login-check';
import { useSession } from '@/lib/session';
import { confirmEmail } from '../api/account';
import { AuthCard } from './AuthCard';
import { useLinkAction } from './use-link-action';

const MISSING_CODE = 'This confirmation link is incomplete. Please open the link from your email again.';

async function confirm(client: QueryClient, code: string) {
  if (code === '') throw new Error(MISSING_CODE);
  const response = await confirmEmail(code);
  markEmailConfirmed(client);
  return response;
}

/** /confirm-email/{code}: the link in the confirmation email. */
export function ConfirmEmailPage() {
  const code = useParams()['*'] ?? '';
  const signedIn = useSession() !== null;
  const client = useQueryClient();
  const state = useLinkAction(() => confirm(client, code));

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
      <AuthCard icon="alert" title="We couldn't confirm your email" lead={code === '' ? MISSING_CODE : state.message}>
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
