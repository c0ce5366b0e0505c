import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api';
import { startSession, type LoginResponse } from './login';

/** A sign-in link that did not work: why, and the address it was sent to when the API names it. */
export class SignInLinkRefused extends Error {
  override readonly name = 'SignInLinkRefused';
  readonly email: string | null;

  constructor(message: string, email: string | null) {
    super(message);
    this.email = email;
  }
}

/**
 * Signs in with an emailed one-time link (/login/{code}/{id}[/{status}]) and stores the session;
 * the answer's `redirect` is the page the email is about.
 */
export async function instantLogin(code: string, id: string, status?: string): Promise<LoginResponse> {
  try {
    return startSession(
      await api.post<LoginResponse>('users/instant-login', { code, id, ...(status ? { status } : {}) }, { auth: false }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const email = (error.body as { email?: unknown } | null)?.email;
      throw new SignInLinkRefused(error.message, typeof email === 'string' ? email : null);
    }
    throw error;
  }
}

export interface InstantLoginLink {
  readonly code: string;
  readonly id: string;
  readonly status?: string;
}

/** Sign in with an emailed link (the instant-login page): a refusal is the page's to show, no error toast. */
export function useInstantLogin() {
  return useMutation({ mutationFn: ({ code, id, status }: InstantLoginLink) => instantLogin(code, id, status) });
}
