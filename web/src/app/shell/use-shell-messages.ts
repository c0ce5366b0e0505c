import { useEffect, useState } from 'react';
import type { BarMessage } from '@/components/layout/MessageBar';
import { CONFIRM_EMAIL_MESSAGE, type LoginCheck } from '@/lib/login-check';
import { dismissGlobalMessage, setGlobalMessage, useGlobalMessage } from '@/lib/session';
import { showToast } from '@/lib/toast';

const RESEND_CONFIRMATION = 'Resend confirmation email';

/**
 * What the top message bar shows: the global message and the confirm-email notice.
 * The sign-in answer also sends the confirm-email notice as its global message: the
 * login check decides about that one (shown once, with its resend action, while the
 * address is unconfirmed; dropped once it is confirmed).
 */
export function useShellMessages(check: LoginCheck | undefined): BarMessage[] {
  const globalMessage = useGlobalMessage();
  const [resending, setResending] = useState(false);
  const confirmed = check?.emailConfirmed === true;
  const globalIsConfirmNotice = globalMessage === CONFIRM_EMAIL_MESSAGE;

  useEffect(() => {
    if (globalIsConfirmNotice && confirmed) setGlobalMessage(null);
  }, [globalIsConfirmNotice, confirmed]);

  const resend = async () => {
    setResending(true);
    try {
      // The account calls load when asked for: the shell's first load does not carry them.
      const { resendConfirmationEmail } = await import('@/features/auth/api/account');
      const { message } = await resendConfirmationEmail();
      showToast({ tone: 'success', title: 'Confirmation email sent', message });
    } catch {
      // The API client has shown the error toast.
    } finally {
      setResending(false);
    }
  };

  const messages: BarMessage[] = [];
  if (globalMessage && !globalIsConfirmNotice) {
    messages.push({
      id: 'global',
      text: globalMessage,
      onDismiss: dismissGlobalMessage,
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
