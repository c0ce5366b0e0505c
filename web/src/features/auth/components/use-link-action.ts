import { useEffect, useRef, useState } from 'react';
import { describeError } from '@/lib/api';

export type LinkActionState<T> =
  | { readonly status: 'pending' }
  | { readonly status: 'success'; readonly data: T }
  | { readonly status: 'error'; readonly message: string };

/**
 * Runs the one-time call behind an emailed link (confirm email, instant login)
 * exactly once, even when React mounts the page twice in development: the codes
 * are single-use, so a second call would fail.
 */
export function useLinkAction<T>(run: () => Promise<T>): LinkActionState<T> {
  const [state, setState] = useState<LinkActionState<T>>({ status: 'pending' });
  const started = useRef(false);
  const runRef = useRef(run);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    runRef.current().then(
      (data) => {
        setState({ status: 'success', data });
      },
      (error: unknown) => {
        setState({ status: 'error', message: describeError(error) });
      },
    );
  }, []);

  return state;
}
