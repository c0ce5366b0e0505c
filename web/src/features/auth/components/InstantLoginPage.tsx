import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { safeRedirect } from '@/lib/redirect';
import { instantLogin } from '../api/instant-login';
import { AuthCard } from './AuthCard';
import { useLinkAction } from './use-link-action';

/** /login/{code}/{id}[/{status}]: the one-time sign-in link from an email. */
export function InstantLoginPage() {
  const { code = '', id = '' } = useParams();
  const navigate = useNavigate();
  const state = useLinkAction(() => instantLogin(code, id));

  useEffect(() => {
    if (state.status !== 'success') return;
    void navigate(safeRedirect(state.data.redirect) ?? '/', { replace: true });
  }, [state, navigate]);

  if (state.status === 'error') {
    return (
      <AuthCard icon="alert" title="This sign-in link didn't work" lead={state.message}>
        <p className="muted small">Sign-in links expire and work once. You can still sign in with your password.</p>
        <div className="actions">
          <Link to="/login" className="button button--primary button--block">
            Go to sign in
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
