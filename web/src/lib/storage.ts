/**
 * Namespaced, JSON-encoded access to localStorage that never throws: private
 * browsing modes and full quotas degrade to "nothing stored".
 */
const PREFIX = 'tandem.';

function backend(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export const storage = {
  /** The stored value (callers check its shape), or null. */
  get(key: string): unknown {
    const raw = backend()?.getItem(PREFIX + key) ?? null;
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  },

  set(key: string, value: unknown): void {
    try {
      backend()?.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      // Quota exceeded or storage disabled: keep running without persistence.
    }
  },

  remove(key: string): void {
    try {
      backend()?.removeItem(PREFIX + key);
    } catch {
      // Storage disabled: nothing to remove.
    }
  },
};
