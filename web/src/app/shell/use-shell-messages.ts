import { useEffect } from 'react';
import type { BarMessage } from '@/components/layout/MessageBar';
import { useResendConfirmation } from '@/features/auth';
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
  const resend = useResendConfirmation();
  const confirmed = check?.emailConfirmed === true;
  const globalIsConfirmNotice = globalMessage === CONFIRM_EMAIL_MESSAGE;

  useEffect(() => {
    if (globalIsConfirmNotice && confirmed) setGlobalMessage(null);
  }, [globalIsConfirmNotice, confirmed]);


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
      action: {
        label: RESEND_CONFIRMATION,
        busy: resend.isPending,
        onClick: () => {
          resend.mutate(undefined, {
            onSuccess: ({ message }) => {
              showToast({ tone: 'success', title: 'Confirmation email sent', message });
            },
          });
        },
      },
    });
  }
  return messages;
}
