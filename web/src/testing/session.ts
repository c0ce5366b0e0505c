import { saveSession, type Session } from '@/lib/session';

export const TEST_SESSION: Session = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  uid: 'u1',
  account: 'a1',
  initials: 'AB',
  name: 'Ana Brand',
  firstName: 'Ana',
  sessionInfo: { access: 'user' },
};

export function signIn(session: Session = TEST_SESSION): Session {
  saveSession(session);
  return session;
}
