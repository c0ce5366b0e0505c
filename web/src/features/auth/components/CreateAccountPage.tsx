import { EmailField } from '@/components/form/EmailField';
import { type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { ApiError } from '@/lib/api';
import { useCreateAccount } from '../api/account';
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
  const create = useCreateAccount();
  // The server's message stays above the fields even when it also put messages on them.
  const serverError = formErrorOf(create.error);
  const emailTaken = create.error instanceof ApiError && create.error.status === EMAIL_TAKEN_STATUS;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending || create.isSuccess || !validateAll([name, brandName, email, password])) return;
    const fields = { name, brandName, email, password };
    create.mutate(
      {
        name: name.value.trim(),
        email: email.value.trim(),
        password: password.value,
        brandName: brandName.value.trim(),
      },
      { onError: (error) => showFieldErrors(error, fields, { focus: false }) },
    );
  };

  if (create.isSuccess) return <CheckYourEmail email={create.variables.email} />;

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
      <form className="form" noValidate onSubmit={submit}>
        {serverError && (
          <Alert>
            {serverError}
            {emailTaken && (
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
        <Button type="submit" block busy={create.isPending}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
