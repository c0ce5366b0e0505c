import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import {
  getSelectedBrand,
  saveSession,
  setSelectedBrand,
  setGlobalMessage,
  type Session,
  type SessionInfo,
} from '@/lib/session';

export interface LoginRequest {
  readonly email: string;
  readonly password: string;
  /** Instant-login code from an emailed link. */
  readonly code?: string;
}

/** POST users/login answer (SPEC section 3). */
export interface LoginResponse {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly uid: string;
  readonly account: string;
  readonly initials: string;
  readonly name: string;
  readonly firstName: string;
  readonly sessionInfo?: SessionInfo;
  readonly redirect?: string;
  readonly globalMessage?: string;
}

/** The login answer's status when the account has no password yet. */
export const NO_PASSWORD_STATUS = 400;

export function toSession(response: LoginResponse): Session {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    uid: response.uid,
    account: response.account,
    initials: response.initials,
    name: response.name,
    firstName: response.firstName,
    sessionInfo: response.sessionInfo ?? {},
  };
}

/** Stores the session a login (or instant login) answer carries. */
export function startSession(response: LoginResponse): LoginResponse {
  // The brand the member acts for is known from the answer: selected now, the first pages'
  // calls name it at once rather than waiting for the dashboard to resolve 'default' (one
  // trip to the server fewer on every page's first load). A brand already chosen (an email's
  // link names one) stays.
  const brand = response.sessionInfo?.brandId;
  if (typeof brand === 'number' && getSelectedBrand() === 'default') setSelectedBrand(brand);
  saveSession(toSession(response));
  setGlobalMessage(response.globalMessage);
  return response;
}

/** Signs in and stores the session. Rejects with ApiError (status + server message). */
export async function login(request: LoginRequest): Promise<LoginResponse> {
  return startSession(await api.post<LoginResponse>('users/login', request, { auth: false }));
}

/**
 * Sign in (the sign-in form): a refusal (401 wrong password, 429 too many attempts) is the
 * form's to show above its fields, and a 400 sends the member to create a password: no error toast.
 */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
