import { EmailField } from '@/components/form/EmailField';
import { type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { formErrorOf } from '@/components/form/server-errors';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError } from '@/lib/api';
import { NO_PASSWORD_STATUS, useLogin, type LoginResponse } from '../api/login';
import { EMAIL_FIELD, REQUIRED_FIELD, validateAll } from './fields';

export interface LoginFormProps {
  readonly onSuccess: (response: LoginResponse) => void | Promise<void>;
  /** The account exists but has no password yet (the login answers 400). */
  readonly onNoPassword: (email: string) => void | Promise<void>;
  /** The address to start with (a sign-in link that no longer works names it). */
  readonly initialEmail?: string;
}

/** A 400 from sign-in: the account has no password yet (the page sends the member to create one). */
function isNoPassword(error: unknown): boolean {
  return error instanceof ApiError && error.status === NO_PASSWORD_STATUS;
}

export function LoginForm({ onSuccess, onNoPassword, initialEmail = '' }: LoginFormProps) {
  const email = useField({ ...EMAIL_FIELD, initialValue: initialEmail });
  const password = useField(REQUIRED_FIELD);
  const signIn = useLogin();
  // Signed in (or sent to create a password): the form stays busy while the page moves on.
  const submitting = signIn.isPending || signIn.isSuccess || isNoPassword(signIn.error);
  const serverError = isNoPassword(signIn.error) ? null : formErrorOf(signIn.error);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !validateAll([email, password])) return;
    const address = email.value.trim();
    signIn.mutate(
      { email: address, password: password.value },
      {
        onSuccess: (response) => {
          void onSuccess(response);
        },
        onError: (error) => {
          if (isNoPassword(error)) void onNoPassword(address);
        },
      },
    );
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
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
