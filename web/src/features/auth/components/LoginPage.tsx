import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { clearSessionEndedNotice, hasSessionEndedNotice } from '@/lib/force-logout';
import { safeRedirect } from '@/lib/redirect';
import type { LoginResponse } from '../api/login';
import { AuthCard } from './AuthCard';
import { LoginForm } from './LoginForm';

export function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [sessionEnded] = useState(hasSessionEndedNotice);
  // A sign-in link that no longer works sends its address along (router state, not the URL).
  const state: unknown = useLocation().state;
  const linkEmail =
    typeof state === 'object' && state !== null && typeof (state as { email?: unknown }).email === 'string'
      ? (state as { email: string }).email
      : '';
  useEffect(clearSessionEndedNotice, []);

  const onSuccess = async (response: LoginResponse) => {
    const target =
      safeRedirect(searchParams.get('redirect')) ?? safeRedirect(response.redirect) ?? '/';
    await navigate(target, { replace: true });
  };

  const onNoPassword = async (email: string) => {
    await navigate('/setup-password-direct', { state: { email } });
  };

  return (
    <AuthCard
      title="Sign in to Tandem"
      lead="Welcome back. Find your next brand partner."
      footer={
        <>
          New to Tandem? <Link to="/create-account">Create an account</Link>
        </>
      }
    >
      {sessionEnded && (
        <div className="auth__notice">
          <Alert tone="info">Your session has ended. Please sign in again.</Alert>
        </div>
      )}
      <LoginForm onSuccess={onSuccess} onNoPassword={onNoPassword} initialEmail={linkEmail} />
    </AuthCard>
  );
}
