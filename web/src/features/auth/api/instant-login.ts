import { useMutation } from '@tanstack/react-query';
import { userBrandInPath } from '@/features/brands';
import { ApiError, api } from '@/lib/api';
import { setSelectedBrand } from '@/lib/session';
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
    const answer = await api.post<LoginResponse>('users/instant-login', { code, id, ...(status ? { status } : {}) }, { auth: false });
    // The page the email is about names the member's brand: it is selected before the session
    // starts, so the app's first calls are already that brand's (not the default brand's, then
    // all of them again for it: a whole extra trip to the server). The server chose the brand,
    // for this member, so it is theirs.
    const brand = answer.redirect ? userBrandInPath(answer.redirect) : null;
    if (brand !== null) setSelectedBrand(brand);
    return startSession(answer);
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
