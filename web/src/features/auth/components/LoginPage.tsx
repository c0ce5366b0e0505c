import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { safeRedirect } from '@/lib/redirect';
import type { LoginResponse } from '../api/login';
import { LoginForm } from './LoginForm';

export function LoginPage() {
  useDocumentTitle('Login');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();

  const onSuccess = async (response: LoginResponse) => {
    const target =
      safeRedirect(searchParams.get('redirect')) ?? safeRedirect(response.redirect) ?? '/';
    await navigate(target, { replace: true });
  };

  return (
    <div className="auth">
      <div className="card auth__card">
        <h1 className="card__title">Sign in to Tandem</h1>
        <p className="muted auth__lead">Welcome back. Find your next brand partner.</p>
        <LoginForm onSuccess={onSuccess} />
      </div>
      <p className="auth__switch">
        New to Tandem? <Link to="/create-account">Create an account</Link>
      </p>
    </div>
  );
}
