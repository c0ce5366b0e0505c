import { useMutation } from '@tanstack/react-query';
import { errorToast } from '@/lib/mutations';

/**
 * Resend confirmation email (the top bar's action, the Profile page): a refusal is an error
 * toast. The account calls load when it is asked for: the shell's first load does not carry them.
 */
export function useResendConfirmation() {
  return useMutation({
    meta: errorToast('Resend confirmation email'),
    mutationFn: async () => (await import('./account')).resendConfirmationEmail(),
  });
}
