import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError } from '@/lib/api';
import { email as emailRule } from '@/lib/validation';
import { login, type LoginResponse } from '../api/login';

const EMAIL_FIELD = { rules: [emailRule] } as const;
const PASSWORD_FIELD = {} as const;

export interface LoginFormProps {
  readonly onSuccess: (response: LoginResponse) => void | Promise<void>;
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Please try again.';
}

export function LoginForm({ onSuccess }: LoginFormProps) {
  const email = useField(EMAIL_FIELD);
  const password = useField(PASSWORD_FIELD);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const invalid = [email, password].filter((field) => field.validate() !== null);
    if (invalid.length > 0) {
      const first = invalid[0];
      if (first) document.getElementById(first.id)?.focus();
      return;
    }
    setServerError(null);
    setSubmitting(true);
    try {
      const response = await login({ email: email.value.trim(), password: password.value });
      await onSuccess(response);
    } catch (error) {
      setServerError(failureMessage(error));
      setSubmitting(false);
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {serverError && <Alert>{serverError}</Alert>}
      <FormField
        field={email}
        name="email"
        type="email"
        label="Email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
      />
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
