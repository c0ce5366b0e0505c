import { keepPreviousData, useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { api, asBrand } from './api';
import { getGlobalMessage, isFeatureOnlySession, setGlobalMessage, useSelectedBrand, useSession } from './session';

/*
 * The login check: who the signed-in user is and which popups and notices
 * they are due. Like the session, every part of the app reads it.
 */

/** GET users (or users/check-brand/{brandId}) answer (SPEC section 3). */
export interface LoginCheck {
  readonly id: string;
  readonly email: string;
  readonly company_name?: string;
  readonly brandId?: number | string | null;
  readonly showWelcome?: boolean;
  readonly showWelcomeOpenerMessage?: boolean;
  readonly welcomeMessage?: string | null;
  readonly showNewbiePopup?: boolean;
  readonly showBrandVisibilityUpdatePupup?: boolean;
  /** The tips tour is due (non-admin members until they finish or skip it). */
  readonly showInstructions?: boolean;
  readonly featureOnly?: boolean;
  readonly emailConfirmed?: boolean;
  readonly lastWebhookUpdate?: Readonly<Record<string, unknown>>;
  /** The top bar's message ('' when there is none); the API client keeps it (lib/api.ts). */
  readonly globalMessage?: string;
}

/** Query keys of the login check: one per selected brand. */
export const loginCheckKeys = {
  all: ['login-check'] as const,
  forBrand: (brand: string) => ['login-check', brand] as const,
};

/** A stored brand id asks for the brand-specific check. */
export function loginCheckPath(brand: string): string {
  return brand === 'default' ? 'users' : `users/check-brand/${encodeURIComponent(brand)}`;
}

/**
 * The signed-in user's login check for the selected brand (nothing when signed out).
 * While another brand's check loads, the previous one stays (no popup or menu flicker).
 */
export function useLoginCheck(): UseQueryResult<LoginCheck> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: loginCheckKeys.forBrand(brand),
    queryFn: () => api.get<LoginCheck>(loginCheckPath(brand), asBrand(brand)),
    enabled: signedIn,
    placeholderData: keepPreviousData,
  });
}

/**
 * Changes the loaded login check of every brand (they describe the same user) after
 * the server accepted a change: the welcome finished, the email confirmed...
 */
export function updateLoginCheck(client: QueryClient, change: Partial<LoginCheck>): void {
  client.setQueriesData<LoginCheck>({ queryKey: loginCheckKeys.all }, (check) =>
    check ? { ...check, ...change } : check,
  );
}

/** The notice an unconfirmed member sees in the top bar (the sign-in answer also sends it as its global message). */
export const CONFIRM_EMAIL_MESSAGE = 'Please confirm your email address.';

/**
 * The email address is confirmed: the loaded checks say so, and the sign-in answer's
 * copy of the notice (kept as the global message) goes too.
 */
export function markEmailConfirmed(client: QueryClient): void {
  updateLoginCheck(client, { emailConfirmed: true });
  if (getGlobalMessage() === CONFIRM_EMAIL_MESSAGE) setGlobalMessage(null);
}

/** Feature-only users: by their session's access, or by the login check (SPEC section 2). */
export function useIsFeatureOnly(): boolean {
  const session = useSession();
  const check = useLoginCheck();
  return isFeatureOnlySession(session) || check.data?.featureOnly === true;
}
