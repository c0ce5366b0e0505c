import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { safeRedirect } from '@/lib/redirect';
import { instantLogin, SignInLinkRefused } from '../api/instant-login';
import { AuthCard } from './AuthCard';

type State =
  | { readonly status: 'pending' }
  | { readonly status: 'error'; readonly message: string; readonly email: string | null };

/**
 * /login/{code}/{id}[/{status}]: the one-time sign-in link from an email. It signs the member in
 * and opens the page the email is about; a used or expired link says so and offers the normal
 * sign-in with the address filled in. Runs once (the code is single-use), even when React mounts
 * the page twice in development.
 */
export function InstantLoginPage() {
  const { code = '', id = '', status } = useParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'pending' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    instantLogin(code, id, status).then(
      (session) => {
        void navigate(safeRedirect(session.redirect) ?? '/', { replace: true });
      },
      (error: unknown) => {
        setState({
          status: 'error',
          message: error instanceof SignInLinkRefused ? error.message : describeError(error),
          email: error instanceof SignInLinkRefused ? error.email : null,
        });
      },
    );
  }, [code, id, status, navigate]);

  if (state.status === 'error') {
    return (
      <AuthCard icon="alert" title="This sign-in link didn't work" lead={state.message}>
        <p className="muted small">Sign-in links in our emails work once, for 72 hours. You can still sign in with your password.</p>
        <div className="actions">
          <Link to="/login" state={state.email ? { email: state.email } : undefined} className="button button--primary button--block">
            Sign in with your password
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Signing you in…">
      <PageLoader inline />
    </AuthCard>
  );
}
