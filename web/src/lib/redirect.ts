/**
 * Helpers for the `redirect` query that carries a user back to where they were
 * going after signing in.
 */

/** A same-site path ("/x", not "//host" or "https://...") or null. */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return null;
  }
  return target;
}

/**
 * The login URL for a user who must sign in to see `target`. The target is
 * URI-encoded except for '/', which stays readable: '/' gives '/login/?redirect=/'
 * and '/matches?tab=2' gives '/login/?redirect=/matches%3Ftab%3D2'.
 */
export function loginPath(target: string): string {
  const safe = safeRedirect(target) ?? '/';
  return `/login/?redirect=${encodeURIComponent(safe).replace(/%2F/g, '/')}`;
}
