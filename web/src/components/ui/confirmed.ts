import { confirm, USER_CANCELLED, type ConfirmOptions } from './confirm';

// Apart from confirm.ts, which the shell's first load carries: the pages that ask load this.
/** `confirm` as a yes or no: true when confirmed, false when the user cancelled. */
export function confirmed(options: ConfirmOptions): Promise<boolean> {
  return confirm(options).then(
    () => true,
    (reason: unknown) => {
      if (reason instanceof Error && reason.message === USER_CANCELLED) return false;
      throw reason;
    },
  );
}
