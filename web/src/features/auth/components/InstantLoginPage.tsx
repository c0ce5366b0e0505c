import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { safeRedirect } from '@/lib/redirect';
import { SignInLinkRefused, useInstantLogin } from '../api/instant-login';
import { AuthCard } from './AuthCard';

/** The server's refusal ends "Sign in with your password instead.": the page's button says that. */
const PASSWORD_HINT = /\s*Sign in with your password instead\.?\s*$/;

/**
 * /login/{code}/{id}[/{status}]: the one-time sign-in link from an email. It signs the member in
 * and opens the page the email is about; a used or expired link says so and offers the normal
 * sign-in with the address filled in. Runs once (the code is single-use), even when React mounts
 * the page twice in development.
 */
export function InstantLoginPage() {
  const { code = '', id = '', status } = useParams();
  const navigate = useNavigate();
  const signIn = useInstantLogin();
  const start = signIn.mutate;
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start(
      { code, id, status },
      {
        onSuccess: (session) => {
          void navigate(safeRedirect(session.redirect) ?? '/', { replace: true });
        },
      },
    );
  }, [code, id, status, navigate, start]);

  if (signIn.isError) {
    const failure = signIn.error;
    const state = {
      message: (failure instanceof SignInLinkRefused ? failure.message : describeError(failure)).replace(PASSWORD_HINT, ''),
      email: failure instanceof SignInLinkRefused ? failure.email : null,
    };
    return (
      <AuthCard icon="alert" title="This sign-in link didn't work" lead={state.message}>
        <p className="muted small">Sign-in links in our emails work once, for 72 hours.</p>
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
