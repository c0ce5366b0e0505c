import { loginPath, safeRedirect } from './redirect';
import { clearSession } from './session';
import { storage } from './storage';

const ENDED_KEY = 'sessionEnded';

/**
 * How the API client leaves the current page when the session ends. The app
 * connects its router here; without one the browser location is used.
 */
export interface AppNavigator {
  /** Path + query + hash of the current page. */
  currentPath(): string;
  go(to: string): void;
}

const browserNavigator: AppNavigator = {
  currentPath: () => window.location.pathname + window.location.search + window.location.hash,
  go: (to) => {
    window.location.assign(to);
  },
};

let appNavigator: AppNavigator = browserNavigator;

export function setAppNavigator(next: AppNavigator | null): void {
  appNavigator = next ?? browserNavigator;
}

/** Where a signed-out user goes: back to the current page after signing in again. */
export function loginPathForCurrentPage(): string {
  const current = appNavigator.currentPath();
  return current.startsWith('/login') ? current : loginPath(current);
}

/**
 * Ends the session in this browser and leaves the page: to `target` when it is a
 * same-site path, else to '/login/?redirect=<current path>' (SPEC section 8).
 */
export function forceLogout(target?: string | null): void {
  const destination = safeRedirect(target) ?? loginPathForCurrentPage();
  clearSession();
  storage.set(ENDED_KEY, true);
  appNavigator.go(destination);
}

/**
 * Goes to `path` through the app's router, for a page that ends the session itself (it is
 * unmounted as the session goes, so its own navigate would be lost).
 */
export function goAfterSignOut(path: string): void {
  appNavigator.go(path);
}

/** Whether the last session was ended by the app (for a notice on the sign-in page). */
export function hasSessionEndedNotice(): boolean {
  return storage.get(ENDED_KEY) === true;
}

export function clearSessionEndedNotice(): void {
  storage.remove(ENDED_KEY);
}
