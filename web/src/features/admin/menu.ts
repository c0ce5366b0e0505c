/** The admin menu (SPEC section 6: admins see an admin menu), shown under the main menu. */
export interface AdminMenuLink {
  readonly id: string;
  readonly label: string;
  readonly to: string;
  /** What the mini menu shows: two letters, each item its own (the initials alone repeat: R/R, G/G, A/A). */
  readonly mark: string;
}

export const ADMIN_SECTIONS = ['users', 'approvals', 'reports', 'refunds', 'credits', 'issues', 'message', 'collaborations', 'audit'] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

export const ADMIN_MENU: readonly AdminMenuLink[] = [
  { id: 'users', label: 'Users', to: '/admin/users', mark: 'Us' },
  { id: 'approvals', label: 'Approvals', to: '/admin/approvals', mark: 'Ap' },
  // The Pitch Area's feature approval page (its own feature owns the route).
  { id: 'features', label: 'Features to approve', to: '/admin/features', mark: 'Fe' },
  { id: 'reports', label: 'Reports', to: '/admin/reports', mark: 'Rp' },
  { id: 'refunds', label: 'Refunds', to: '/admin/refunds', mark: 'Rf' },
  { id: 'credits', label: 'Gift credits', to: '/admin/credits', mark: 'Gc' },
  { id: 'issues', label: 'Issue reports', to: '/admin/issues', mark: 'Is' },
  { id: 'message', label: 'Global message', to: '/admin/message', mark: 'Gm' },
  { id: 'collaborations', label: 'Collaborations', to: '/admin/collaborations', mark: 'Co' },
  { id: 'audit', label: 'Audit log', to: '/admin/audit', mark: 'Au' },
];

export function isAdminSection(value: string | undefined): value is AdminSection {
  return (ADMIN_SECTIONS as readonly string[]).includes(value ?? '');
}

/** What an audit entry's action means, for people. */
export const ACTION_LABELS: Readonly<Record<string, string>> = {
  'approval.required': 'Required approval',
  'approval.approve': 'Approved subscription',
  'approval.refuse': 'Refused subscription',
  'refund.issue': 'Refunded payment',
  'credits.grant': 'Gifted credits',
  'settings.globalMessage': 'Changed global message',
  'settings.approveNewMembers': 'Changed approval of new members',
  'feature.approve': 'Approved feature',
  'feature.refuse': 'Refused feature',
  'brand.dismiss': 'Dismissed reports',
  'brand.warn': 'Warned brand',
  'brand.suspend': 'Suspended brand',
  'brand.lift': 'Lifted suspension',
  'grant.trial': 'Granted free trial',
  'grant.plan': 'Granted plan',
  'grant.end': 'Ended granted plan or trial',
};

/** An action's label; one not named above still reads as words ("grant.trial" as "Grant trial"). */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const STATUS_LABELS: Readonly<Record<string, string>> = {
  none: 'No plan',
  pending_approval: 'Pending approval',
  active: 'Active',
  trialling: 'Free trial',
  cancelled: 'Cancelled',
  gifted: 'Gifted credits only',
  fixed_term: 'Fixed term',
  feature_only: 'Feature only',
};
