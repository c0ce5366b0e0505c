import { EmailField } from '@/components/form/EmailField';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { describeError } from '@/lib/api';
import type { MessageResponse } from '../api/account';
import { AuthCard } from './AuthCard';
import { EMAIL_FIELD, validateAll } from './fields';

export interface EmailLinkFormProps {
  readonly title: string;
  readonly lead: ReactNode;
  readonly submitLabel: string;
  readonly send: (email: string) => Promise<MessageResponse>;
  readonly initialEmail?: string;
}

/** "Enter your email and we'll send you a link" (forgot password, set up password). */
export function EmailLinkForm({ title, lead, submitLabel, send, initialEmail = '' }: EmailLinkFormProps) {
  const email = useField({ ...EMAIL_FIELD, initialValue: initialEmail });
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !validateAll([email])) return;
    setServerError(null);
    setSubmitting(true);
    const address = email.value.trim();
    try {
      const response = await send(address);
      setSent({ email: address, message: response.message });
    } catch (error) {
      setServerError(describeError(error));
      setSubmitting(false);
    }
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
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {serverError && <Alert>{serverError}</Alert>}
        <EmailField field={email} autoFocus />
        <Button type="submit" block busy={submitting}>
          {submitLabel}
        </Button>
      </form>
    </AuthCard>
  );
}
