import { EmailField } from '@/components/form/EmailField';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError, describeError } from '@/lib/api';
import { createAccount } from '../api/account';
import { AuthCard } from './AuthCard';
import { EMAIL_FIELD, NEW_PASSWORD_FIELD, PASSWORD_HINT, REQUIRED_FIELD, validateAll } from './fields';

const EMAIL_TAKEN_STATUS = 409;

/** The "check your email" screen; the server's confirmation text says the same, so it is not repeated. */
function CheckYourEmail({ email }: { readonly email: string }) {
  return (
    <AuthCard
      icon="mail"
      title="Check your email"
      lead={
        <>
          We sent a confirmation link to <strong>{email}</strong>. Open it to confirm your address,
          then sign in.
        </>
      }
    >
      <div className="actions">
        <Link to="/login" className="button button--primary button--block">
          Go to sign in
        </Link>
      </div>
    </AuthCard>
  );
}

export function CreateAccountPage() {
  const name = useField(REQUIRED_FIELD);
  const brandName = useField(REQUIRED_FIELD);
  const email = useField(EMAIL_FIELD);
  const password = useField(NEW_PASSWORD_FIELD);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<{ message: string; emailTaken: boolean } | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !validateAll([name, brandName, email, password])) return;
    setServerError(null);
    setSubmitting(true);
    const request = {
      name: name.value.trim(),
      email: email.value.trim(),
      password: password.value,
      brandName: brandName.value.trim(),
    };
    try {
      await createAccount(request);
      setSentTo(request.email);
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
      const fields = { name, brandName, email, password };
      for (const [key, field] of Object.entries(fields)) {
        const message = fieldErrors[key];
        if (message) field.setError(message);
      }
      const emailTaken = error instanceof ApiError && error.status === EMAIL_TAKEN_STATUS;
      setServerError({ message: describeError(error), emailTaken });
      setSubmitting(false);
    }
  };

  if (sentTo !== null) return <CheckYourEmail email={sentTo} />;

  return (
    <AuthCard
      title="Create your account"
      lead="Join Tandem and start finding brands to partner with."
      footer={
        <>
          Already a member? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {serverError && (
          <Alert>
            {serverError.message}
            {serverError.emailTaken && (
              <>
                {' '}
                <Link to="/login">Sign in</Link> or <Link to="/forgot-password">reset your password</Link>.
              </>
            )}
          </Alert>
        )}
        <FormField field={name} name="name" label="Your name" autoComplete="name" autoFocus />
        <FormField field={brandName} name="brandName" label="Brand name" autoComplete="organization" />
        <EmailField field={email} />
        <FormField
          field={password}
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <Button type="submit" block busy={submitting}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
