import { MutationCache, type Mutation } from '@tanstack/react-query';
import { describeError, SessionEndedError } from './api';
import { showToast } from './toast';

/**
 * What a write (a `useMutation` under `features/<name>/api`) tells the one error handler of
 * the app's MutationCache about itself (its `meta`).
 */
export interface WriteMeta extends Record<string, unknown> {
  /**
   * The title of the error toast a failure shows (the server's message below it), or a
   * function of the mutation's variables. Without it the write shows its failure itself
   * (a form's fields, a card's alert): the handler stays quiet.
   */
  readonly errorTitle?: string | ((variables: never) => string);
  /**
   * The failures the write shows itself although it has an errorTitle (a 402 told in a
   * dialog, a field's message): the handler stays quiet on those.
   */
  readonly shownElsewhere?: (error: unknown) => boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: WriteMeta;
  }
}

/**
 * Meta for a write whose failure is told in an error toast (a title, or one made from its
 * variables), but for the failures `shownElsewhere` picks out.
 */
export function errorToast(
  title: string | ((variables: never) => string),
  shownElsewhere?: (error: unknown) => boolean,
): WriteMeta {
  return { errorTitle: title, shownElsewhere };
}

/**
 * The one place a failed write is told (SPEC section 8): an error toast titled by the
 * write's `meta.errorTitle`, with the ApiError's message (the server's; a write's own words
 * for a step no server answered, such as a refused clipboard, come as an ApiError with
 * status 0, like a network failure). A session that ended is not told: the member is
 * already on the way to sign in.
 */
export function toastWriteError(error: unknown, variables: unknown, mutation: Pick<Mutation, 'meta'>): void {
  const title = mutation.meta?.errorTitle;
  if (title === undefined || error instanceof SessionEndedError) return;
  if (mutation.meta?.shownElsewhere?.(error) === true) return;
  const text = typeof title === 'function' ? (title as (variables: unknown) => string)(variables) : title;
  showToast({ tone: 'error', title: text, message: describeError(error) });
}

/** The app's MutationCache: every write's failure goes through toastWriteError. */
export function createMutationCache(): MutationCache {
  return new MutationCache({
    onError: (error, variables, _context, mutation) => {
      toastWriteError(error, variables, mutation);
    },
  });
}
