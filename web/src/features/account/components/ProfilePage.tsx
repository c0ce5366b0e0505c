import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '@/components/form/FormField';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { useField, type Field } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { useResendConfirmation } from '@/features/auth';
import { email as emailRule, password as passwordRule } from '@/lib/validation';
import { profileQuery, useChangeEmail, useChangeName, useChangePassword, type Profile } from '../api/profile';

const NAME_FIELD = { rules: [(value: string) => (value.trim().length > 100 ? 'Please use at most 100 characters' : null)] };
const EMAIL_FIELD = { rules: [emailRule] };
const REQUIRED = {};
const NEW_PASSWORD_FIELD = { rules: [passwordRule] };
const PASSWORD_HINT =
  'Use 8 to 30 characters with an uppercase letter, a lowercase letter and a number, and no spaces.';
const PASSWORDS_DIFFER = 'Passwords do not match';

type Outcome = { readonly tone: 'success' | 'error'; readonly text: string } | null;

/** Validates the fields, focuses the first bad one; true when all are valid. */
function validateAll(fields: readonly Field[]): boolean {
  const invalid = fields.filter((field) => field.validate() !== null);
  if (invalid[0]) document.getElementById(invalid[0].id)?.focus();
  return invalid.length === 0;
}

/**
 * What a save says under its form: the server's success message, or its refusal (unless it
 * went on the fields, see showFieldErrors, or the session ended).
 */
function outcomeOf(
  save: { readonly data?: { readonly message: string } | string; readonly error: unknown },
  fields: Readonly<Record<string, Field>> = {},
): Outcome {
  if (save.data !== undefined) return { tone: 'success', text: typeof save.data === 'string' ? save.data : save.data.message };
  const text = formErrorOf(save.error, fields);
  return text === null ? null : { tone: 'error', text };
}

function Section({ title, id, children }: { readonly title: string; readonly id: string; readonly children: ReactNode }) {
  return (
    <section className="card profile__section" aria-labelledby={id}>
      <h2 className="card__subtitle" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function OutcomeMessage({ outcome }: { readonly outcome: Outcome }) {
  if (outcome === null) return null;
  return <Alert tone={outcome.tone}>{outcome.text}</Alert>;
}

function NameForm({ profile }: { readonly profile: Profile }) {
  const name = useField({ ...NAME_FIELD, initialValue: profile.name });
  const save = useChangeName();
  const busy = save.isPending;
  const outcome = outcomeOf(save, { name });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !validateAll([name])) return;
    save.mutate(name.value.trim(), { onError: (error) => showFieldErrors(error, { name }) });
  };

  return (
    <Section title="Your name" id="profile-name">
      <form className="form" noValidate onSubmit={submit}>
        <FormField field={name} name="name" label="Name" autoComplete="name" maxLength={100} />
        <OutcomeMessage outcome={outcome} />
        <div className="actions actions--end">
          <Button type="submit" busy={busy} disabled={name.value.trim() === profile.name}>
            Save name
          </Button>
        </div>
      </form>
    </Section>
  );
}

function ConfirmationState({ profile }: { readonly profile: Profile }) {
  const resend = useResendConfirmation();
  const outcome = outcomeOf(resend);
  if (profile.emailConfirmed) {
    return (
      <p className="profile__email">
        <span className="profile__address">{profile.email}</span>{' '}
        <span className="status-chip status-chip--accepted">Confirmed</span>
      </p>
    );
  }
  return (
    <>
      <p className="profile__email">
        <span className="profile__address">{profile.email}</span>{' '}
        <span className="status-chip status-chip--pending">Not confirmed</span>
      </p>
      <p className="muted small">Confirm your address with the link we emailed you, so brands can reach you.</p>
      <div className="actions">
        <Button
          variant="secondary"
          busy={resend.isPending}
          onClick={() => {
            resend.mutate();
          }}
        >
          Resend confirmation email
        </Button>
      </div>
      <OutcomeMessage outcome={outcome} />
    </>
  );
}

function EmailForm({ profile }: { readonly profile: Profile }) {
  const email = useField(EMAIL_FIELD);
  const current = useField(REQUIRED);
  const save = useChangeEmail();
  const busy = save.isPending;
  const fields = { email, currentPassword: current };
  const outcome = outcomeOf(save, fields);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !validateAll([email, current])) return;
    save.mutate(
      { email: email.value.trim(), currentPassword: current.value },
      {
        onSuccess: () => {
          email.setValue('');
          current.setValue('');
        },
        onError: (error) => showFieldErrors(error, fields),
      },
    );
  };

  return (
    <Section title="Email address" id="profile-email">
      <ConfirmationState profile={profile} />
      <form className="form profile__subform" noValidate onSubmit={submit}>
        <h3 className="profile__subtitle">Change your email address</h3>
        <FormField
          field={email}
          name="email"
          label="New email address"
          type="email"
          autoComplete="email"
          hint="You sign in with the new address at once; we email it a link to confirm it."
        />
        <FormField field={current} name="currentPassword" label="Current password" type="password" autoComplete="current-password" />
        <OutcomeMessage outcome={outcome} />
        <div className="actions actions--end">
          <Button type="submit" busy={busy}>
            Change email
          </Button>
        </div>
      </form>
    </Section>
  );
}

function PasswordForm({ profile }: { readonly profile: Profile }) {
  const current = useField(REQUIRED);
  const next = useField(NEW_PASSWORD_FIELD);
  const matches = useMemo(() => ({ rules: [(value: string) => (value === next.value ? null : PASSWORDS_DIFFER)] }), [next.value]);
  const confirmation = useField(matches);
  const save = useChangePassword();
  const busy = save.isPending;
  const fields = { currentPassword: current, newPassword: next };
  const outcome = outcomeOf(save, fields);

  if (!profile.hasPassword) {
    return (
      <Section title="Password" id="profile-password">
        <p className="muted">
          Your account has no password yet. <Link to="/setup-password">We can email you a link to create one.</Link>
        </p>
      </Section>
    );
  }

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !validateAll([current, next, confirmation])) return;
    save.mutate(
      { currentPassword: current.value, newPassword: next.value },
      {
        onSuccess: () => {
          for (const field of [current, next, confirmation]) field.setValue('');
        },
        onError: (error) => showFieldErrors(error, fields),
      },
    );
  };

  return (
    <Section title="Password" id="profile-password">
      <form className="form" noValidate onSubmit={submit}>
        <FormField field={current} name="currentPassword" label="Current password" type="password" autoComplete="current-password" />
        <FormField field={next} name="newPassword" label="New password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
        <FormField field={confirmation} name="confirmPassword" label="Confirm new password" type="password" autoComplete="new-password" />
        <p className="muted small">Changing your password signs you out on every other device.</p>
        <OutcomeMessage outcome={outcome} />
        <div className="actions actions--end">
          <Button type="submit" busy={busy}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  );
}

/**
 * /account/profile/ (SPEC section 2): the member's name, email address with its confirmation
 * state, and password. Every member has it; it is the Profile item of a feature-only menu.
 */
export function ProfilePage() {
  const profile = useQuery(profileQuery());

  return (
    <div className="profile">
      <header className="page-header">
        <h1 className="page-title">Profile</h1>
        <p className="page-header__lead">
          Your own details. Your brands' profiles are under <Link to="/account/brands">Brands</Link>.
        </p>
      </header>
      {profile.data ? (
        <div className="stack profile__sections">
          <NameForm profile={profile.data} />
          <EmailForm profile={profile.data} />
          <PasswordForm profile={profile.data} />
        </div>
      ) : profile.isError ? (
        <LoadFailed title="We couldn't load your profile" error={profile.error} retry={() => void profile.refetch()} />
      ) : (
        <PageLoader inline />
      )}
    </div>
  );
}
