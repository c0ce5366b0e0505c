import type { ComponentType } from 'react';

/**
 * The route table: every path the SPA serves, with who may see it.
 *
 * - public:        anyone.
 * - loggedOutOnly: signed-in users are sent to '/'.
 * - private:       signed-out users are sent to '/login/?redirect=<path>'.
 * - instantLogin:  the emailed instant-login link; open to everyone, signed in or not.
 *
 * Pages are loaded lazily so each route ships its own chunk. Paths match with
 * or without a trailing slash ('/login' serves '/login/' too).
 */
export type RouteAccess = 'public' | 'loggedOutOnly' | 'private' | 'instantLogin';

/** Which shell wraps the page. */
export type RouteLayout = 'public' | 'app';

/** Static data a page can read through useMatches() (e.g. a subscription overlay type). */
export type RouteMeta = Readonly<Record<string, string | boolean>>;

export interface PageRoute {
  readonly path: string;
  readonly access: RouteAccess;
  readonly layout: RouteLayout;
  readonly page: () => Promise<ComponentType>;
  readonly meta?: RouteMeta;
}

export interface RedirectRoute {
  readonly path: string;
  readonly redirectTo: string;
}

export type AppRoute = PageRoute | RedirectRoute;

export function isRedirectRoute(route: AppRoute): route is RedirectRoute {
  return 'redirectTo' in route;
}

export const NOT_FOUND_PATH = '/404';

export const routes: readonly AppRoute[] = [
  // Public (SPEC section 2)
  {
    path: '/login',
    access: 'loggedOutOnly',
    layout: 'public',
    page: () => import('@/features/auth/components/LoginPage').then((m) => m.LoginPage),
  },
  {
    path: NOT_FOUND_PATH,
    access: 'public',
    layout: 'public',
    page: () => import('@/features/misc/components/NotFoundPage').then((m) => m.NotFoundPage),
  },

  // Private
  {
    path: '/',
    access: 'private',
    layout: 'app',
    page: () =>
      import('@/features/dashboard/components/DashboardPage').then((m) => m.DashboardPage),
  },

  // Anything else
  { path: '*', redirectTo: NOT_FOUND_PATH },
];
