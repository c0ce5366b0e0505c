/**
 * What the main menu and the user menu show (SPEC section 2 "Main menu").
 * Pure functions of the counts, the kind of user (for the items' names) and the areas the
 * server says the account includes (credits.areas): which areas a feature-only account gets
 * is decided on the server (tandem.domain.entitlements), never here.
 */
import type { IconName } from './components/Icon';

export interface MenuCountsInput {
  readonly dashboard: number;
  readonly matches: number;
  readonly requests: number;
  readonly connections: number;
  readonly declines: number;
}

/** Credits info's `areas` (the dashboard's credits): true for each area the account includes. */
export interface MenuAreasInput {
  readonly matches?: boolean;
  readonly connections?: boolean;
  readonly declines?: boolean;
  readonly 'collab-ideas'?: boolean;
  readonly 'video-guides'?: boolean;
  readonly collaborations?: boolean;
  readonly requests?: boolean;
  readonly billing?: boolean;
}

export interface MenuContext {
  readonly counts: MenuCountsInput;
  /** A feature-only user: their Requests item is named 'Pitches Received', their Profile is /account/profile/. */
  readonly featureOnly: boolean;
  /** The areas the account includes; null until the dashboard has answered (then only the items every account has). */
  readonly areas: MenuAreasInput | null;
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

export function buildMainMenu({ counts, featureOnly, areas }: MenuContext): MenuEntry[] {
  const has = (area: keyof MenuAreasInput) => areas?.[area] === true;
  const entries: (MenuEntry | false)[] = [
    link('dashboard', 'Dashboard', 'home', '/', '/', counts.dashboard),
    link('pitch', 'Pitch Area', 'megaphone', '/pitch', '/pitch'),
    has('matches') && link('matches', 'Matches', 'sparkles', '/matches', '/matches', counts.matches),
    has('requests') &&
      link('requests', featureOnly ? 'Pitches Received' : 'Requests', 'inbox', requestsPath(counts), '/requests', counts.requests),
    has('connections') && link('connections', 'Connections', 'link', connectionsPath(counts), '/connections'),
    has('collaborations') && link('collaborations', 'Collaborations', 'calendar', '/collaborations', '/collaborations'),
    has('declines') && link('declines', 'Declines', 'x-circle', '/declines', '/declines'),
    has('collab-ideas') && link('inspiration', 'Collab Ideas', 'bulb', '/inspiration', '/inspiration'),
    has('video-guides') && { kind: 'action', id: 'videoGuides', label: 'Video Guides', icon: 'play' },
    link('profile', 'Profile', 'user', featureOnly ? PROFILE_PATH : BRAND_PROFILE_PATH, '/account'),
  ];
  return entries.filter((entry): entry is MenuEntry => entry !== false);
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
export function buildUserMenuLinks({ areas }: MenuContext): UserMenuLink[] {
  return [
    { label: 'Profile', to: PROFILE_PATH },
    { label: 'Notifications', to: NOTIFICATIONS_PATH },
    ...(areas?.billing === true ? [{ label: 'Billing', to: BILLING_PATH }] : []),
  ];
}
