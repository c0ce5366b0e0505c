import { useState } from 'react';
import type { BarMessage } from '@/components/layout/MessageBar';
import { resendConfirmationEmail } from '@/features/auth/api/account';
import type { LoginCheck } from '@/lib/login-check';
import { setGlobalMessage, useGlobalMessage } from '@/lib/session';
import { showToast } from '@/lib/toast';

export const CONFIRM_EMAIL_MESSAGE = 'Please confirm your email address.';
export const RESEND_CONFIRMATION = 'Resend confirmation email';

/** What the top message bar shows: the global message and the confirm-email notice. */
export function useShellMessages(check: LoginCheck | null): BarMessage[] {
  const globalMessage = useGlobalMessage();
  const [resending, setResending] = useState(false);

  const resend = async () => {
    setResending(true);
    try {
      const { message } = await resendConfirmationEmail();
      showToast({ tone: 'success', title: 'Confirmation email sent', message });
    } catch {
      // The API client has shown the error toast.
    } finally {
      setResending(false);
    }
  };

  const messages: BarMessage[] = [];
  if (globalMessage) {
    messages.push({
      id: 'global',
      text: globalMessage,
      onDismiss: () => {
        setGlobalMessage(null);
      },
    });
  }
  if (check?.emailConfirmed === false) {
    messages.push({
      id: 'confirm-email',
      text: CONFIRM_EMAIL_MESSAGE,
      action: { label: RESEND_CONFIRMATION, busy: resending, onClick: () => void resend() },
    });
  }
  return messages;
}
