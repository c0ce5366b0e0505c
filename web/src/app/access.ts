import { loginPath } from '@/lib/redirect';
import type { AreaRequirement, RouteAccess } from './routes';

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
 * Where a member must go instead of a route of an area their account does not include (SPEC
 * section 2: a feature-only account has no Matches, Connections, Declines, Collab Ideas, nor
 * sent requests), or null. Which areas an account includes is the server's answer (credits
 * info's `areas`); null while it is not known yet.
 */
export function areaRedirect(requires: AreaRequirement | undefined, areas: Partial<Record<AreaRequirement['area'], boolean>> | null): string | null {
  if (!requires || areas === null) return null;
  return areas[requires.area] === false ? requires.otherwise : null;
}
