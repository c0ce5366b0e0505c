import { storage } from './storage';

const KEY = 'analyticsId';

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A random id for this browser, created on first use and kept in localStorage. */
export function getAnalyticsId(): string {
  const existing = storage.get(KEY);
  if (typeof existing === 'string' && existing !== '') return existing;
  const id = randomId();
  storage.set(KEY, id);
  return id;
}
