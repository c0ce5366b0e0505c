import { useLocation } from 'react-router';
import { useSetupPassword } from '../api/account';
import { EmailLinkForm } from './EmailLinkForm';

export function SetupPasswordPage() {
  const send = useSetupPassword();
  return (
    <EmailLinkForm
      title="Set up your password"
      lead="Enter your email and we'll send you a link to create a password for your account."
      submitLabel="Email me a link"
      send={send}
    />
  );
}

function emailFromState(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}

/** Where sign-in sends an account that has no password yet (the login answered 400). */
export function SetupPasswordDirectPage() {
  const state: unknown = useLocation().state;
  const send = useSetupPassword();
  return (
    <EmailLinkForm
      title="Your account doesn't have a password yet"
      lead="To sign in, first create a password. We'll email you a secure link to set one up."
      submitLabel="Email me a link"
      send={send}
      initialEmail={emailFromState(state)}
    />
  );
}
