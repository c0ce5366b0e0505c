import { api } from './api';
import { createResource, useResource, type ResourceState } from './resource';
import { isFeatureOnlySession, useSelectedBrand, useSession } from './session';

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
  readonly featureOnly?: boolean;
  readonly emailConfirmed?: boolean;
  readonly lastWebhookUpdate?: Readonly<Record<string, unknown>>;
}

/** A stored brand id asks for the brand-specific check. */
export function loginCheckPath(brand: string): string {
  return brand === 'default' ? 'users' : `users/check-brand/${encodeURIComponent(brand)}`;
}

export const loginCheckResource = createResource<LoginCheck>((brand) =>
  api.get<LoginCheck>(loginCheckPath(brand)),
);

/** The signed-in user's login check for the selected brand (nothing when signed out). */
export function useLoginCheck(): ResourceState<LoginCheck> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useResource(loginCheckResource, signedIn ? brand : null);
}

export function markWelcomeSeen(): void {
  loginCheckResource.update((check) => ({ ...check, showWelcome: false }));
}

export function markBrandVisibilitySeen(): void {
  loginCheckResource.update((check) => ({ ...check, showBrandVisibilityUpdatePupup: false }));
}

export function markEmailConfirmed(): void {
  loginCheckResource.update((check) => ({ ...check, emailConfirmed: true }));
}

/** Feature-only users: by their session's access, or by the login check (SPEC section 2). */
export function useIsFeatureOnly(): boolean {
  const session = useSession();
  const check = useLoginCheck();
  return isFeatureOnlySession(session) || check.data?.featureOnly === true;
}
