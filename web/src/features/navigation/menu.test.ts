import { describe, expect, it } from 'vitest';
import {
  buildMainMenu,
  buildUserMenuLinks,
  formatCount,
  isCurrentSection,
  type MenuAreasInput,
  type MenuContext,
  type MenuLink,
} from './menu';

const ZERO = { dashboard: 0, matches: 0, requests: 0, connections: 0, declines: 0 };

/** credits.areas as the server gives them to a member, and to a feature-only account before and after its feature was live. */
const MEMBER_AREAS: MenuAreasInput = {
  matches: true,
  connections: true,
  declines: true,
  'collab-ideas': true,
  'video-guides': true,
  requests: true,
  billing: true,
};
const FEATURE_ONLY_AREAS: MenuAreasInput = {
  matches: false,
  connections: false,
  declines: false,
  'collab-ideas': false,
  'video-guides': false,
  requests: false,
  billing: false,
};
const FEATURE_ONLY_LIVE_AREAS: MenuAreasInput = { ...FEATURE_ONLY_AREAS, requests: true, billing: true };

interface ContextOverrides {
  readonly featureOnly?: boolean;
  readonly areas?: MenuAreasInput | null;
  readonly counts?: Partial<typeof ZERO>;
}

function context({ counts, featureOnly = false, areas = featureOnly ? FEATURE_ONLY_AREAS : MEMBER_AREAS }: ContextOverrides = {}): MenuContext {
  return { featureOnly, areas, counts: { ...ZERO, ...counts } };
}

const labels = (ctx: MenuContext) => buildMainMenu(ctx).map((entry) => entry.label);
const linkTo = (ctx: MenuContext, id: string) =>
  (buildMainMenu(ctx).find((entry) => entry.id === id) as MenuLink | undefined)?.to;

describe('formatCount', () => {
  it.each([
    [undefined, null],
    [0, null],
    [-2, null],
    [1, '1'],
    [9, '9'],
    [10, '9+'],
    [250, '9+'],
  ])('%j shows %j', (count, text) => {
    expect(formatCount(count)).toBe(text);
  });
});

describe('main menu', () => {
  it('lists the SPEC items in order for a regular user', () => {
    expect(labels(context())).toEqual([
      'Dashboard',
      'Pitch Area',
      'Matches',
      'Requests',
      'Connections',
      'Declines',
      'Collab Ideas',
      'Video Guides',
      'Profile',
    ]);
  });

  it('carries counts on Dashboard, Matches and Requests only', () => {
    const counts = { dashboard: 3, matches: 12, requests: 2, connections: 5, declines: 1 };
    const withCounts = buildMainMenu(context({ counts }))
      .filter((entry): entry is MenuLink => entry.kind === 'link' && entry.count !== undefined)
      .map((entry) => [entry.label, entry.count]);
    expect(withCounts).toEqual([
      ['Dashboard', 3],
      ['Matches', 12],
      ['Requests', 2],
    ]);
  });

  it('sends Requests to /requests/received only when there are new requests', () => {
    expect(linkTo(context(), 'requests')).toBe('/requests');
    expect(linkTo(context({ counts: { requests: 1 } }), 'requests')).toBe('/requests/received');
  });

  it('sends Connections to /connections/connected only when there are new connections', () => {
    expect(linkTo(context(), 'connections')).toBe('/connections');
    expect(linkTo(context({ counts: { connections: 4 } }), 'connections')).toBe('/connections/connected');
  });

  it('sends Profile to the brand profile for regular users', () => {
    expect(linkTo(context(), 'profile')).toBe('/account/brands');
  });

  it('gives feature-only users the reduced menu', () => {
    const ctx = context({ featureOnly: true });
    expect(labels(ctx)).toEqual(['Dashboard', 'Pitch Area', 'Profile']);
    expect(linkTo(ctx, 'profile')).toBe('/account/profile/');
  });

  it("shows feature-only users 'Pitches Received' when the server's areas include requests", () => {
    const ctx = context({ featureOnly: true, areas: FEATURE_ONLY_LIVE_AREAS, counts: { requests: 11 } });
    expect(labels(ctx)).toEqual(['Dashboard', 'Pitch Area', 'Pitches Received', 'Profile']);
    expect(linkTo(ctx, 'requests')).toBe('/requests/received');
  });

  it('shows each area exactly as credits.areas says, whatever the kind of user', () => {
    expect(labels(context({ areas: { ...MEMBER_AREAS, declines: false, 'video-guides': false } }))).toEqual([
      'Dashboard',
      'Pitch Area',
      'Matches',
      'Requests',
      'Connections',
      'Collab Ideas',
      'Profile',
    ]);
  });

  it('shows only the items every account has until the dashboard has said which areas it includes', () => {
    expect(labels(context({ areas: null }))).toEqual(['Dashboard', 'Pitch Area', 'Profile']);
    expect(buildUserMenuLinks(context({ areas: null })).map((link) => link.label)).toEqual(['Profile', 'Notifications']);
  });
});

describe('user menu links', () => {
  it('offers Profile, Notifications and Billing', () => {
    expect(buildUserMenuLinks(context())).toEqual([
      { label: 'Profile', to: '/account/profile/' },
      { label: 'Notifications', to: '/account/notifications/' },
      { label: 'Billing', to: '/account/subscriptions/' },
    ]);
  });

  it("offers Billing only when the server's areas include it", () => {
    expect(buildUserMenuLinks(context({ featureOnly: true })).map((link) => link.label)).toEqual([
      'Profile',
      'Notifications',
    ]);
    expect(buildUserMenuLinks(context({ featureOnly: true, areas: FEATURE_ONLY_LIVE_AREAS }))).toHaveLength(3);
  });
});

describe('isCurrentSection', () => {
  const matches = buildMainMenu(context()).find((entry) => entry.id === 'matches') as MenuLink;
  const dashboard = buildMainMenu(context()).find((entry) => entry.id === 'dashboard') as MenuLink;

  it('matches the section and its sub-pages, not look-alikes', () => {
    expect(isCurrentSection(matches, '/matches/saved')).toBe(true);
    expect(isCurrentSection(matches, '/matches')).toBe(true);
    expect(isCurrentSection(matches, '/matchesx')).toBe(false);
    expect(isCurrentSection(dashboard, '/')).toBe(true);
    expect(isCurrentSection(dashboard, '/matches')).toBe(false);
  });
});
