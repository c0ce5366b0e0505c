import { api } from '@/lib/api';
import { startSession, type LoginResponse } from './login';

/** Signs in with an emailed one-time link (/login/{code}/{id}) and stores the session. */
export async function instantLogin(code: string, id: string): Promise<LoginResponse> {
  return startSession(
    await api.post<LoginResponse>('users/instant-login', { code, id }, { auth: false }),
  );
}
