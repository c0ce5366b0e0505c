import { EmailField } from '@/components/form/EmailField';
import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { formErrorOf } from '@/components/form/server-errors';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import type { MessageResponse } from '../api/account';
import { AuthCard } from './AuthCard';
import { EMAIL_FIELD, validateAll } from './fields';

export interface EmailLinkFormProps {
  readonly title: string;
  readonly lead: ReactNode;
  readonly submitLabel: string;
  /** The write that emails the link (a hook of ../api/account), given the address. */
  readonly send: UseMutationResult<MessageResponse, Error, string>;
  readonly initialEmail?: string;
}

/** "Enter your email and we'll send you a link" (forgot password, set up password). */
export function EmailLinkForm({ title, lead, submitLabel, send, initialEmail = '' }: EmailLinkFormProps) {
  const email = useField({ ...EMAIL_FIELD, initialValue: initialEmail });
  const serverError = formErrorOf(send.error);
  const sent = send.isSuccess ? { email: send.variables, message: send.data.message } : null;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending || !validateAll([email])) return;
    send.mutate(email.value.trim());
  };

  const backToSignIn = (
    <>
      Remembered your password? <Link to="/login">Sign in</Link>
    </>
  );

  if (sent) {
    return (
      <AuthCard
        icon="mail"
        title="Check your email"
        lead={
          sent.message || (
            <>
              If <strong>{sent.email}</strong> belongs to a Tandem account, a link is on its way.
            </>
          )
        }
        footer={backToSignIn}
      >
        {/* The server's answer says what was sent (once); this line says where to look. */}
        {sent.message && (
          <p className="muted">
            Look in the inbox of <strong>{sent.email}</strong>, and in its spam folder.
          </p>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title} lead={lead} footer={backToSignIn}>
      <form className="form" noValidate onSubmit={submit}>
        {serverError && <Alert>{serverError}</Alert>}
        <EmailField field={email} autoFocus />
        <Button type="submit" block busy={send.isPending}>
          {submitLabel}
        </Button>
      </form>
    </AuthCard>
  );
}
