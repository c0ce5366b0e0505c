import { EmailField } from '@/components/form/EmailField';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError, describeError } from '@/lib/api';
import { login, NO_PASSWORD_STATUS, type LoginResponse } from '../api/login';
import { EMAIL_FIELD, REQUIRED_FIELD, validateAll } from './fields';

export interface LoginFormProps {
  readonly onSuccess: (response: LoginResponse) => void | Promise<void>;
  /** The account exists but has no password yet (the login answers 400). */
  readonly onNoPassword: (email: string) => void | Promise<void>;
  /** The address to start with (a sign-in link that no longer works names it). */
  readonly initialEmail?: string;
}

export function LoginForm({ onSuccess, onNoPassword, initialEmail = '' }: LoginFormProps) {
  const email = useField({ ...EMAIL_FIELD, initialValue: initialEmail });
  const password = useField(REQUIRED_FIELD);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !validateAll([email, password])) return;
    setServerError(null);
    setSubmitting(true);
    const address = email.value.trim();
    try {
      const response = await login({ email: address, password: password.value });
      await onSuccess(response);
    } catch (error) {
      if (error instanceof ApiError && error.status === NO_PASSWORD_STATUS) {
        await onNoPassword(address);
        return;
      }
      setServerError(describeError(error));
      setSubmitting(false);
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {serverError && <Alert>{serverError}</Alert>}
      <EmailField field={email} autoComplete="username" autoFocus />
      <FormField
        field={password}
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        labelAside={
          <Link to="/forgot-password" className="field__aside-link">
            Forgot password?
          </Link>
        }
      />
      <Button type="submit" block busy={submitting}>
        Sign in
      </Button>
    </form>
  );
}
