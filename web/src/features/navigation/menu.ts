/**
 * What the main menu and the user menu show (SPEC section 2 "Main menu").
 * Pure functions of the counts and the kind of user, so the rules are testable.
 */
import type { IconName } from './components/Icon';

export interface MenuCountsInput {
  readonly dashboard: number;
  readonly matches: number;
  readonly requests: number;
  readonly connections: number;
  readonly declines: number;
}

export interface MenuContext {
  readonly counts: MenuCountsInput;
  readonly featureOnly: boolean;
  /** A feature of this user has been live (credits.featureDone.hasHadLive). */
  readonly hasHadLive: boolean;
}

export interface MenuLink {
  readonly kind: 'link';
  readonly id: string;
  readonly label: string;
  readonly icon: IconName;
  readonly to: string;
  /** Paths that mark the item as current: exactly '/' for the dashboard, else this prefix. */
  readonly section: string;
  readonly count?: number;
}

/** An item that opens a popup instead of a page. */
export interface MenuAction {
  readonly kind: 'action';
  readonly id: 'videoGuides';
  readonly label: string;
  readonly icon: IconName;
}

export type MenuEntry = MenuLink | MenuAction;

export const COUNT_CAP = 9;

/** A menu counter's text: nothing for zero, '9+' above 9. */
export function formatCount(count: number | undefined): string | null {
  if (count === undefined || !Number.isFinite(count) || count <= 0) return null;
  return count > COUNT_CAP ? `${COUNT_CAP}+` : String(Math.floor(count));
}

export function requestsPath(counts: MenuCountsInput): string {
  return counts.requests > 0 ? '/requests/received' : '/requests';
}

export function connectionsPath(counts: MenuCountsInput): string {
  return counts.connections > 0 ? '/connections/connected' : '/connections';
}

export const BRAND_PROFILE_PATH = '/account/brands';
export const PROFILE_PATH = '/account/profile/';
export const NOTIFICATIONS_PATH = '/account/notifications/';
export const BILLING_PATH = '/account/subscriptions/';

function link(id: string, label: string, icon: IconName, to: string, section: string, count?: number): MenuLink {
  return { kind: 'link', id, label, icon, to, section, count };
}

export function buildMainMenu({ counts, featureOnly, hasHadLive }: MenuContext): MenuEntry[] {
  const dashboard = link('dashboard', 'Dashboard', 'home', '/', '/', counts.dashboard);
  const pitch = link('pitch', 'Pitch Area', 'megaphone', '/pitch', '/pitch');

  if (featureOnly) {
    return [
      dashboard,
      pitch,
      ...(hasHadLive
        ? [link('requests', 'Pitches Received', 'inbox', requestsPath(counts), '/requests', counts.requests)]
        : []),
      link('profile', 'Profile', 'user', PROFILE_PATH, '/account'),
    ];
  }

  return [
    dashboard,
    pitch,
    link('matches', 'Matches', 'sparkles', '/matches', '/matches', counts.matches),
    link('requests', 'Requests', 'inbox', requestsPath(counts), '/requests', counts.requests),
    link('connections', 'Connections', 'link', connectionsPath(counts), '/connections'),
    link('declines', 'Declines', 'x-circle', '/declines', '/declines'),
    link('inspiration', 'Collab Ideas', 'bulb', '/inspiration', '/inspiration'),
    { kind: 'action', id: 'videoGuides', label: 'Video Guides', icon: 'play' },
    link('profile', 'Profile', 'user', BRAND_PROFILE_PATH, '/account'),
  ];
}

/** Whether a menu link is the current section. */
export function isCurrentSection(item: MenuLink, pathname: string): boolean {
  if (item.section === '/') return pathname === '/';
  return pathname === item.section || pathname.startsWith(`${item.section}/`);
}

export interface UserMenuLink {
  readonly label: string;
  readonly to: string;
}

/** The user menu's page links; Help and Log out follow them. */
export function buildUserMenuLinks({ featureOnly, hasHadLive }: MenuContext): UserMenuLink[] {
  return [
    { label: 'Profile', to: PROFILE_PATH },
    { label: 'Notifications', to: NOTIFICATIONS_PATH },
    ...(featureOnly && !hasHadLive ? [] : [{ label: 'Billing', to: BILLING_PATH }]),
  ];
}
