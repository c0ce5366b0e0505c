import { useEffect, useSyncExternalStore } from 'react';

/**
 * A tiny shared store for one piece of server data (the dashboard, the login
 * check...): every component asking for the same key shares one request, a
 * newer key wins over an older in-flight one, and the previous data stays on
 * screen while a new key loads (switching brands does not blank the menu).
 */
export type ResourceStatus = 'idle' | 'loading' | 'success' | 'error';

export interface ResourceState<T> {
  readonly key: string | null;
  readonly status: ResourceStatus;
  readonly data: T | null;
  readonly error: Error | null;
}

export interface LoadOptions {
  /** Fetch again even when this key is already loaded. */
  readonly force?: boolean;
}

export interface Resource<T> {
  readonly getState: () => ResourceState<T>;
  readonly subscribe: (listener: () => void) => () => void;
  /** Loads `key`; resolves with the data, or null when the load failed or was overtaken. */
  readonly load: (key: string, options?: LoadOptions) => Promise<T | null>;
  /** Changes loaded data locally (e.g. after an action the server has accepted). */
  readonly update: (change: (data: T) => T) => void;
  readonly reset: () => void;
}

const IDLE: ResourceState<never> = Object.freeze({
  key: null,
  status: 'idle',
  data: null,
  error: null,
});

const registry = new Set<Resource<unknown>>();

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function createResource<T>(fetcher: (key: string) => Promise<T>): Resource<T> {
  let state: ResourceState<T> = IDLE;
  let pending: { key: string; promise: Promise<T | null> } | null = null;
  let generation = 0;
  const listeners = new Set<() => void>();

  const set = (next: ResourceState<T>) => {
    state = next;
    listeners.forEach((listener) => {
      listener();
    });
  };

  const load = (key: string, { force = false }: LoadOptions = {}): Promise<T | null> => {
    if (pending?.key === key && !force) return pending.promise;
    if (!force && state.key === key && state.status === 'success') {
      return Promise.resolve(state.data);
    }
    const current = ++generation;
    set({ key, status: 'loading', data: state.data, error: null });
    const promise = fetcher(key).then(
      (data) => {
        if (current !== generation) return null;
        pending = null;
        set({ key, status: 'success', data, error: null });
        return data;
      },
      (error: unknown) => {
        if (current !== generation) return null;
        pending = null;
        set({ key, status: 'error', data: state.data, error: asError(error) });
        return null;
      },
    );
    pending = { key, promise };
    return promise;
  };

  const resource: Resource<T> = {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    load,
    update: (change) => {
      if (state.data !== null) set({ ...state, data: change(state.data) });
    },
    reset: () => {
      generation++;
      pending = null;
      set(IDLE);
    },
  };
  registry.add(resource as Resource<unknown>);
  return resource;
}

/** Forgets every resource's data (on sign-out, so nothing leaks to the next user). */
export function resetAllResources(): void {
  registry.forEach((resource) => {
    resource.reset();
  });
}

/**
 * The state of `resource` for `key`, loading it when needed. A null key means
 * "nothing to load" (e.g. signed out). Until `key` has its own answer the
 * previous data is returned with status 'loading'.
 */
export function useResource<T>(resource: Resource<T>, key: string | null): ResourceState<T> {
  const state = useSyncExternalStore(resource.subscribe, resource.getState, resource.getState);
  // Load when the key changes, and again after a reset (the store then holds no key).
  const stale = key !== null && state.key !== key;
  useEffect(() => {
    if (key !== null && stale) void resource.load(key);
  }, [resource, key, stale]);
  if (key === null) return IDLE;
  if (state.key !== key) return { key, status: 'loading', data: state.data, error: null };
  return state;
}
