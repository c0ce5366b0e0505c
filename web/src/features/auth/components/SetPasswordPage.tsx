import { useMemo, useState, type SubmitEvent } from 'react';
import { Link, useParams } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { describeError } from '@/lib/api';
import { setPasswordWithCode, type PasswordLinkKind } from '../api/account';
import { AuthCard } from './AuthCard';
import { NEW_PASSWORD_FIELD, PASSWORD_HINT, PASSWORDS_DIFFER, validateAll } from './fields';

interface Copy {
  readonly title: string;
  readonly lead: string;
  readonly passwordLabel: string;
  readonly confirmLabel: string;
  readonly submit: string;
  readonly doneTitle: string;
  /** Where to ask for a fresh link when this one has expired. */
  readonly newLinkPath: string;
}

const COPY: Record<PasswordLinkKind, Copy> = {
  reset: {
    title: 'Choose a new password',
    lead: 'Pick a new password for your Tandem account.',
    passwordLabel: 'New password',
    confirmLabel: 'Confirm new password',
    submit: 'Save new password',
    doneTitle: 'Password updated',
    newLinkPath: '/forgot-password',
  },
  create: {
    title: 'Create your password',
    lead: 'Choose a password to finish setting up your Tandem account.',
    passwordLabel: 'Password',
    confirmLabel: 'Confirm password',
    submit: 'Create password',
    doneTitle: 'Password created',
    newLinkPath: '/setup-password',
  },
};

function SetPasswordForm({ kind }: { readonly kind: PasswordLinkKind }) {
  const copy = COPY[kind];
  const { code = '' } = useParams();
  const password = useField(NEW_PASSWORD_FIELD);
  const matches = useMemo(
    () => ({ rules: [(value: string) => (value === password.value ? null : PASSWORDS_DIFFER)] }),
    [password.value],
  );
  const confirmation = useField(matches);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !validateAll([password, confirmation])) return;
    setServerError(null);
    setSubmitting(true);
    try {
      const response = await setPasswordWithCode(kind, code, password.value);
      setDone(response.message);
    } catch (error) {
      setServerError(describeError(error));
      setSubmitting(false);
    }
  };

  if (done !== null) {
    return (
      <AuthCard icon="check" title={copy.doneTitle} lead={done || 'You can now sign in with your new password.'}>
        <div className="actions">
          <Link to="/login" className="button button--primary button--block">
            Sign in
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      icon="key"
      title={copy.title}
      lead={copy.lead}
      footer={
        <>
          Remembered your password? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {serverError && (
          <Alert>
            {serverError} <Link to={copy.newLinkPath}>Request a new link</Link>
          </Alert>
        )}
        <FormField
          field={password}
          name="password"
          type="password"
          label={copy.passwordLabel}
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          autoFocus
        />
        <FormField
          field={confirmation}
          name="confirmPassword"
          type="password"
          label={copy.confirmLabel}
          autoComplete="new-password"
        />
        <Button type="submit" block busy={submitting}>
          {copy.submit}
        </Button>
      </form>
    </AuthCard>
  );
}

/** /reset-password/{code}: from the forgot-password email. */
export function ResetPasswordPage() {
  return <SetPasswordForm kind="reset" />;
}

/** /create-password/{code}: from the set-up-password email. */
export function CreatePasswordPage() {
  return <SetPasswordForm kind="create" />;
}
