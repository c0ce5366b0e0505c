import { useForgotPassword } from '../api/account';
import { EmailLinkForm } from './EmailLinkForm';

export function ForgotPasswordPage() {
  const send = useForgotPassword();
  return (
    <EmailLinkForm
      title="Reset your password"
      lead="Enter the email you use for Tandem and we'll send you a link to choose a new password."
      submitLabel="Send reset link"
      send={send}
    />
  );
}
