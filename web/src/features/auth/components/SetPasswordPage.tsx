import { useEffect, useMemo, useState, type SubmitEvent } from 'react';
import { Link, useParams } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { formErrorOf } from '@/components/form/server-errors';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { api, ApiError } from '@/lib/api';
import { useSetPasswordWithCode, type PasswordLinkKind } from '../api/account';
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

type LinkCheck =
  | { readonly status: 'checking' }
  | { readonly status: 'usable' }
  | { readonly status: 'spent'; readonly message: string };

const SPENT = 'This link has expired or was already used. Please ask for a new one.';

/**
 * Asks the server whether the emailed link still works (GET, changes nothing), so a used,
 * expired or replaced link says so before any form. Only a 410 (or a 400) means spent: if the
 * check itself fails, the form is shown and saving gives the answer.
 */
function useLinkCheck(kind: PasswordLinkKind, code: string): LinkCheck {
  const [check, setCheck] = useState<LinkCheck>(
    code === '' ? { status: 'spent', message: SPENT } : { status: 'checking' },
  );
  useEffect(() => {
    if (code === '') return;
    let current = true;
    api.get<{ valid: boolean }>(`users/${kind}-password/${encodeURIComponent(code)}`, { auth: false }).then(
      () => {
        if (current) setCheck({ status: 'usable' });
      },
      (error: unknown) => {
        if (!current) return;
        const spent = error instanceof ApiError && (error.status === 410 || error.status === 400);
        setCheck(spent ? { status: 'spent', message: error.message } : { status: 'usable' });
      },
    );
    return () => {
      current = false;
    };
  }, [kind, code]);
  return check;
}

function SetPasswordForm({ kind }: { readonly kind: PasswordLinkKind }) {
  const copy = COPY[kind];
  const { code = '' } = useParams();
  const check = useLinkCheck(kind, code);
  const password = useField(NEW_PASSWORD_FIELD);
  const matches = useMemo(
    () => ({ rules: [(value: string) => (value === password.value ? null : PASSWORDS_DIFFER)] }),
    [password.value],
  );
  const confirmation = useField(matches);
  const save = useSetPasswordWithCode(kind);
  const serverError = formErrorOf(save.error);
  const done = save.data?.message ?? null;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending || !validateAll([password, confirmation])) return;
    save.mutate({ code, password: password.value });
  };

  if (check.status === 'checking') {
    return (
      <AuthCard title="Checking your link…">
        <PageLoader inline />
      </AuthCard>
    );
  }

  if (check.status === 'spent') {
    return (
      <AuthCard icon="alert" title="This link no longer works" lead={check.message}>
        <p className="muted small">Links work once, and only the newest one we sent you works.</p>
        <div className="actions">
          <Link to={copy.newLinkPath} className="button button--primary button--block">
            Request a new link
          </Link>
        </div>
      </AuthCard>
    );
  }

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
      <form className="form" noValidate onSubmit={submit}>
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
        <Button type="submit" block busy={save.isPending}>
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
