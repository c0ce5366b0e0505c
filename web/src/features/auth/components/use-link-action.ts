import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { describeError } from '@/lib/api';

export type LinkActionState<T> =
  | { readonly status: 'pending' }
  | { readonly status: 'success'; readonly data: T }
  | { readonly status: 'error'; readonly message: string };

/**
 * Runs the one-time write behind an emailed link (confirm email, stop welcome emails) with
 * these variables exactly once, even when React mounts the page twice in development: the
 * codes are single-use, so a second call would fail.
 */
export function useLinkAction<T, V>(action: UseMutationResult<T, Error, V>, variables: V): LinkActionState<T> {
  const started = useRef(false);
  const run = action.mutate;
  const variablesRef = useRef(variables);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run(variablesRef.current);
  }, [run]);

  if (action.isSuccess) return { status: 'success', data: action.data };
  if (action.isError) return { status: 'error', message: describeError(action.error) };
  return { status: 'pending' };
}
