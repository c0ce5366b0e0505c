import { api } from '@/lib/api';
import { clearSession, getSession } from '@/lib/session';

/** Revokes the refresh token on the server (errors ignored) and forgets the session. */
export async function logout(): Promise<void> {
  const refreshToken = getSession()?.refreshToken;
  if (refreshToken) {
    try {
      await api.post('users/logout', { refreshToken });
    } catch {
      // SPEC section 7: logout errors are ignored; the local session goes regardless.
    }
  }
  clearSession();
}
