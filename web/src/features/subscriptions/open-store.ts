import { useSyncExternalStore } from 'react';

/** A value shown by one host while it is set (an overlay's request, a message): open, close, read. */
export interface OpenStore<T> {
  readonly open: (value: T) => void;
  readonly close: () => void;
  readonly current: () => T | null;
  /** The value now, re-rendering the component when it changes. */
  readonly use: () => T | null;
}

/** A small external store (useSyncExternalStore) for something one host shows while it is open. */
export function createOpenStore<T>(): OpenStore<T> {
  let current: T | null = null;
  const listeners = new Set<() => void>();
  const publish = (next: T | null) => {
    current = next;
    listeners.forEach((listener) => {
      listener();
    });
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const get = () => current;
  return {
    open: (value) => {
      publish(value);
    },
    close: () => {
      publish(null);
    },
    current: get,
    use: () => useSyncExternalStore(subscribe, get, get),
  };
}
