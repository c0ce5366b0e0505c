/**
 * Which Video Guides page name (a guide's `pageNames`, in videos.toml) each area of the app is:
 * the shell shows a "Guide" button on the areas whose page has a guide.
 */
const PAGE_OF_AREA: Readonly<Record<string, string>> = {
  Dashboard: 'dashboard',
  Brands: 'brands',
  Matches: 'matches',
  Requests: 'requests',
  Connections: 'connections',
  Declines: 'declines',
  'Pitch Area': 'pitch',
  'Collab Ideas': 'inspiration',
  Billing: 'subscriptions',
  Notifications: 'notifications',
};

export function guidePageOf(area: string | null | undefined): string | null {
  return area ? (PAGE_OF_AREA[area] ?? null) : null;
}
