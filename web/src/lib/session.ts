import { useSyncExternalStore } from 'react';
import { storage } from './storage';
import { createListeners } from './store';

/** Extra information the server sends with a login; `access` may be 'admin'. */
export interface SessionInfo {
  readonly access?: string;
  /** The brand the member acts for when none is named (the account's first), null with none. */
  readonly brandId?: number | null;
  readonly [key: string]: unknown;
}

/** What is kept in the browser for a signed-in user (SPEC section 3). */
export interface Session {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly uid: string;
  readonly account: string;
  readonly initials: string;
  readonly name: string;
  readonly firstName: string;
  readonly sessionInfo: SessionInfo;
}

const SESSION_KEY = 'session';
const BRAND_KEY = 'selectedBrand';
const GLOBAL_MESSAGE_KEY = 'globalMessage';
const DISMISSED_MESSAGE_KEY = 'globalMessageDismissed';
const IMPERSONATE_KEY = 'impersonateUser';

const changes = createListeners();
let cached: Session | null | undefined;

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.accessToken === 'string' && typeof record.refreshToken === 'string';
}

function emit(): void {
  cached = undefined;
  changes.notify();
}

export function getSession(): Session | null {
  if (cached === undefined) {
    const stored = storage.get(SESSION_KEY);
    cached = isSession(stored) ? stored : null;
  }
  return cached;
}

export function isLoggedIn(): boolean {
  return getSession() !== null;
}

export function isAdmin(): boolean {
  return getSession()?.sessionInfo.access === 'admin';
}

/** Feature-only users (SPEC section 1) see a reduced menu. */
export function isFeatureOnlySession(session: Session | null = getSession()): boolean {
  return session?.sessionInfo.access === 'feature';
}

export function saveSession(session: Session): void {
  storage.set(SESSION_KEY, session);
  emit();
}

/** Replace the tokens after a refresh, keeping the rest of the session. */
export function updateTokens(accessToken: string, refreshToken: string): void {
  const current = getSession();
  if (current) saveSession({ ...current, accessToken, refreshToken });
}

export function clearSession(): void {
  storage.remove(SESSION_KEY);
  storage.remove(BRAND_KEY);
  storage.remove(GLOBAL_MESSAGE_KEY);
  storage.remove(IMPERSONATE_KEY);
  emit();
}

/**
 * The brand every request acts for: a numeric id, or 'default' (the server then
 * uses the user's first brand). Anything non-numeric is treated as 'default'.
 */
export function getSelectedBrand(): string {
  const stored = storage.get(BRAND_KEY);
  const value = typeof stored === 'number' ? String(stored) : stored;
  return typeof value === 'string' && /^\d+$/.test(value) ? value : 'default';
}

export function setSelectedBrand(brandId: string | number): void {
  const value = String(brandId);
  if (/^\d+$/.test(value)) storage.set(BRAND_KEY, value);
  else storage.remove(BRAND_KEY);
  emit();
}

export function getGlobalMessage(): string | null {
  const stored = storage.get(GLOBAL_MESSAGE_KEY);
  return typeof stored === 'string' && stored !== '' ? stored : null;
}

/**
 * Keeps the message an answer carried for the top bar (nothing: no message). A message the
 * member dismissed stays dismissed when later answers carry it again; a new one shows.
 */
export function setGlobalMessage(message: string | null | undefined): void {
  if (message && message === storage.get(DISMISSED_MESSAGE_KEY)) return;
  if (message === getGlobalMessage() || (!message && getGlobalMessage() === null)) return;
  if (message) storage.set(GLOBAL_MESSAGE_KEY, message);
  else storage.remove(GLOBAL_MESSAGE_KEY);
  emit();
}

/** The member closed the message: it is not shown again, even when answers still carry it. */
export function dismissGlobalMessage(): void {
  const message = getGlobalMessage();
  if (message) storage.set(DISMISSED_MESSAGE_KEY, message);
  setGlobalMessage(null);
}

/**
 * Developer mode only: the user an admin acts as (sent as X-Impersonate-User).
 * Empty or missing means nobody.
 */
export function getImpersonatedUser(): string | null {
  const stored = storage.get(IMPERSONATE_KEY);
  return typeof stored === 'string' && stored.trim() !== '' ? stored.trim() : null;
}

export function setImpersonatedUser(user: string | null): void {
  if (user?.trim()) storage.set(IMPERSONATE_KEY, user.trim());
  else storage.remove(IMPERSONATE_KEY);
  emit();
}

export const subscribe: (listener: () => void) => () => void = changes.subscribe;

// Another tab signing in or out changes what this tab should show.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith('tandem.')) emit();
  });
}

/** The current session, re-rendering when it changes (in this tab or another). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => null);
}

/** The selected brand ('default' or a numeric id), re-rendering when it changes. */
export function useSelectedBrand(): string {
  return useSyncExternalStore(subscribe, getSelectedBrand, () => 'default');
}

/** The message for the top message bar, re-rendering when it changes. */
export function useGlobalMessage(): string | null {
  return useSyncExternalStore(subscribe, getGlobalMessage, () => null);
}

/** The impersonated user (developer mode), re-rendering when it changes. */
export function useImpersonatedUser(): string | null {
  return useSyncExternalStore(subscribe, getImpersonatedUser, () => null);
}
