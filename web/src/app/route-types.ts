import type { ComponentType } from 'react';

/**
 * Who may see a route:
 * - public:        anyone.
 * - loggedOutOnly: signed-in users are sent to '/'.
 * - private:       signed-out users are sent to '/login/?redirect=<path>'.
 * - instantLogin:  the emailed instant-login link; open to everyone, signed in or not.
 */
export type RouteAccess = 'public' | 'loggedOutOnly' | 'private' | 'instantLogin';

/** Which shell wraps the page: the public header, the same plus the footer, or the app. */
export type RouteLayout = 'public' | 'publicWithFooter' | 'app';

/**
 * Static data a page can read through useMatches(): the subscription overlay type
 * and the payment-processing flag of SPEC section 2 "Subscriptions screen".
 */
export interface RouteMeta {
  readonly subscriptionType?: 'account' | 'pitch' | 'request' | 'requests' | 'matches' | 'match';
  readonly paymentProcessing?: boolean;
}

export interface PageRoute {
  readonly path: string;
  readonly access: RouteAccess;
  readonly layout: RouteLayout;
  /** The page title: the tab reads "Tandem Hub: <title>". */
  readonly title: string;
  /** The product area, named by placeholder pages ("Matches"). Defaults to the title. */
  readonly area?: string;
  readonly page: () => Promise<ComponentType>;
  readonly meta?: RouteMeta;
  /**
   * The area of the account this route belongs to (a key of credits info's `areas`, which the
   * server decides: tandem.domain.entitlements), and where a member whose account does not
   * include it is sent instead.
   */
  readonly requires?: AreaRequirement;
  /** The title a feature-only user sees (their menu names the same page differently). */
  readonly featureOnlyTitle?: string;
}

export interface RedirectRoute {
  readonly path: string;
  readonly redirectTo: string;
}

export type AppRoute = PageRoute | RedirectRoute;

/** An area of the account (credits info's `areas` key) a route needs, and where to go without it. */
export interface AreaRequirement {
  readonly area: 'matches' | 'connections' | 'declines' | 'send-requests' | 'collab-ideas' | 'video-guides' | 'requests' | 'billing' | 'collaborations';
  readonly otherwise: string;
}

/** What each matched route carries in `handle`. */
export interface RouteHandle extends RouteMeta {
  readonly access: RouteAccess;
  readonly title: string;
  readonly featureOnlyTitle?: string;
  readonly area: string;
  readonly requires?: AreaRequirement;
}

export function isRedirectRoute(route: AppRoute): route is RedirectRoute {
  return 'redirectTo' in route;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  if (typeof value !== 'object' || value === null) return false;
  const { title, access } = value as Record<string, unknown>;
  return typeof title === 'string' && typeof access === 'string';
}
