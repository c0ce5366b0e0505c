import { useEffect, useState } from 'react';
import { messageOf } from './use-paged-list';

export type OneItem<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'success'; readonly item: T }
  | { readonly status: 'error'; readonly message: string | null };

export interface OneItemState<T> {
  readonly state: OneItem<T>;
  /** Loads again (the error's 'Try again'). */
  readonly retry: () => void;
  /** Shows a newer copy the server returned (after accept, decline...). */
  readonly replace: (item: T) => void;
}

/**
 * One server item for a detail page: loaded once `enabled` (the brand in the address is
 * settled) and again when `key` changes; answers for an older key are dropped.
 */
export function useOneItem<T>(load: (key: string) => Promise<T>, key: string, enabled: boolean): OneItemState<T> {
  const [state, setState] = useState<OneItem<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    load(key).then(
      (item) => {
        if (live) setState({ status: 'success', item });
      },
      (error: unknown) => {
        if (live) setState({ status: 'error', message: messageOf(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [load, key, enabled, attempt]);

  return {
    state,
    retry: () => {
      setState({ status: 'loading' });
      setAttempt((n) => n + 1);
    },
    replace: (item) => {
      setState({ status: 'success', item });
    },
  };
}
