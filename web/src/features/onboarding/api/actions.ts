import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { updateLoginCheck } from '@/lib/login-check';

/** Records that the user is done with the welcome popup. */
export function finishWelcome(): Promise<unknown> {
  return api.post('users/action/welcome', undefined, { keepalive: true });
}

/** Records that the user has seen the brand visibility update. */
export function acknowledgeBrandVisibility(): Promise<unknown> {
  return api.post('users/action/brand-visibility-pupup', undefined, { keepalive: true });
}

/**
 * The welcome popup is done with, by Finish or by closing it (Esc, the X): it is
 * recorded on the server, and the loaded login check stops asking for it at once,
 * so it does not come back on the next page (Help in the account menu has the same
 * guidance).
 */
export function useWelcomeDone() {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Welcome'),
    mutationFn: finishWelcome,
    onMutate: () => {
      updateLoginCheck(client, { showWelcome: false, showWelcomeOpenerMessage: false, showNewbiePopup: false });
    },
  });
}

/** The brand visibility note was seen: recorded, and not shown again. */
export function useBrandVisibilitySeen() {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Brand visibility'),
    mutationFn: acknowledgeBrandVisibility,
    onMutate: () => {
      updateLoginCheck(client, { showBrandVisibilityUpdatePupup: false });
    },
  });
}

/** Records that the user is done with the tips tour (finished or skipped). */
export function finishInstructions(): Promise<unknown> {
  return api.post('users/action/instructions', undefined, { keepalive: true });
}

/** The tips tour is done with: recorded, and the loaded login check stops asking at once. */
export function useInstructionsDone() {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Tips tour'),
    mutationFn: finishInstructions,
    onMutate: () => {
      updateLoginCheck(client, { showInstructions: false });
    },
  });
}
