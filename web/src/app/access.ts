import { loginPath } from '@/lib/redirect';
import type { RouteAccess } from './routes';

export interface LocationLike {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

/** Where a user must go instead of `location`, or null when they may stay. */
export function accessRedirect(
  access: RouteAccess,
  loggedIn: boolean,
  location: LocationLike,
): string | null {
  switch (access) {
    case 'private':
      return loggedIn ? null : loginPath(location.pathname + location.search + location.hash);
    case 'loggedOutOnly':
      return loggedIn ? '/' : null;
    case 'public':
    case 'instantLogin':
      return null;
  }
}

/**
 * Where a feature-only user must go instead of a route their account does not include
 * (SPEC section 2: no Matches, Connections, Declines, Collab Ideas; no sent requests), or null.
 * The route names that place (`featureOnlyRedirect`); the API refuses those areas too.
 */
export function accountTypeRedirect(featureOnlyRedirect: string | undefined, featureOnly: boolean): string | null {
  return featureOnly && featureOnlyRedirect !== undefined ? featureOnlyRedirect : null;
}
