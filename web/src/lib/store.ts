import { useSyncExternalStore } from 'react';

/**
 * The app's one pattern for state outside React that components read (`useSyncExternalStore`):
 * toasts, confirms, open modals, the session, preferences, and what a host shows while it is
 * open (an overlay, a popup). Server data is not here: it lives in the query cache.
 */

type Listener = () => void;

/** Who to tell when something changed: `subscribe` (as useSyncExternalStore wants it) and `notify`. */
export interface Listeners {
  readonly subscribe: (listener: Listener) => () => void;
  readonly notify: () => void;
}

/** A set of listeners, for state kept elsewhere (browser storage) that says when it changed. */
export function createListeners(): Listeners {
  const listeners = new Set<Listener>();
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify: () => {
      listeners.forEach((listener) => {
        listener();
      });
    },
  };
}

/** One value and its readers. */
export interface Store<T> {
  readonly get: () => T;
  /** A new value; readers re-render (nothing happens when it is the same value). */
  readonly set: (next: T) => void;
  readonly subscribe: (listener: Listener) => () => void;
  /** The value now, re-rendering the component when it changes. */
  readonly use: () => T;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const { subscribe, notify } = createListeners();
  const get = () => value;
  return {
    get,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      notify();
    },
    subscribe,
    use: () => useSyncExternalStore(subscribe, get, get),
  };
}

/** A value shown by one host while it is set (an overlay's request, a message): open, close, read. */
export interface OpenStore<T> {
  readonly open: (value: T) => void;
  readonly close: () => void;
  readonly current: () => T | null;
  /** The value now, re-rendering the component when it changes. */
  readonly use: () => T | null;
}

/** A store for something one host shows while it is open. */
export function createOpenStore<T>(): OpenStore<T> {
  const store = createStore<T | null>(null);
  return {
    open: (value) => {
      store.set(value);
    },
    close: () => {
      store.set(null);
    },
    current: store.get,
    use: store.use,
  };
}
