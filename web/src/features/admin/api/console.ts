import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { cursorPaging, withCursor, type Page } from '@/lib/paging';
import { useSelectedBrand } from '@/lib/session';
import { adminKeys } from './keys';

/** The admin console's calls (issue 12). Lists come a page at a time (`nextCursor`). */

export interface Plan {
  /**
   * none | pending_approval | active | trialling | cancelled | fixed_term; in Users, what the
   * member holds besides: gifted (gifted credits, no plan) or feature_only.
   */
  readonly status: string;
  readonly plan: string | null;
  /** Who gave the plan in force: stripe (paid) or tandem (granted by the team); null without one. */
  readonly source?: string | null;
  /** null | required | approved | refused */
  readonly approval: string | null;
  readonly validTo: string | null;
}

export interface Member {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly access: string;
  readonly accountId: string;
  readonly plan: Plan;
  /** The server's rule (entitlements): this member's next plan may be made to wait for approval. */
  readonly canRequireApproval: boolean;
  /** The server's rule (entitlements): this member may be granted Tandem's free trial (no plan in force, none had). */
  readonly canGrantTrial: boolean;
}

export interface WaitingAccount {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly email: string;
  readonly since: string | null;
  readonly plan: Plan;
}

export interface RefundablePayment {
  readonly id: string;
  readonly kind: string;
  readonly amount: number;
  readonly currency: string;
  readonly paidAt: string | null;
  readonly refundedAmount: number;
  readonly withinGuarantee: boolean;
}

export interface RefundPreview {
  readonly payment: RefundablePayment | null;
  readonly message: string | null;
  readonly plan: Plan;
}

export interface RefundResult {
  readonly refund: { readonly payment: string; readonly amount: number; readonly refund: string; readonly cancelled: string | null };
  readonly plan: Plan;
  readonly credits: { readonly available: number; readonly total: number };
}

export interface IssueReport {
  readonly id: string;
  readonly at: string;
  readonly user: { readonly id: string; readonly email: string };
  readonly description: string;
  readonly path: string;
}

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly actor: { readonly id: string; readonly email: string };
  readonly action: string;
  readonly target: string;
  readonly details: Readonly<Record<string, unknown>>;
  /** Whom or what the action was about: a name, and the admin page that shows it. */
  readonly subject?: { readonly label: string; readonly href: string | null };
  /** The details in words (amounts as money, no raw ids). */
  readonly facts?: readonly string[];
}

export interface SiteSettings {
  readonly globalMessage: string;
  readonly approveNewMembers: boolean;
}

export interface GiftInput {
  readonly email: string;
  readonly amount: number;
  readonly kind: string;
  readonly days: number;
}

export const CREDIT_KINDS = [
  { value: 'gifted', label: 'Gifted credits' },
  { value: 'main', label: 'Subscription credits' },
  { value: 'add-on-one-time', label: 'One-time add-on credits' },
  { value: 'recurring', label: 'Recurring add-on credits' },
] as const;

async function page<T>(path: string, cursor: string | null, field: string): Promise<Page<T>> {
  const body = await api.get<Record<string, unknown>>(withCursor(path, cursor));
  const items = Array.isArray(body[field]) ? (body[field] as T[]) : [];
  return { items, nextCursor: typeof body.nextCursor === 'string' ? body.nextCursor : null };
}

export function useMembers(q: string) {
  const brand = useSelectedBrand();
  const path = q ? `admin/members?q=${encodeURIComponent(q)}` : 'admin/members';
  return useInfiniteQuery({
    queryKey: adminKeys.members(brand, q),
    queryFn: ({ pageParam }) => page<Member>(path, pageParam, 'users'),
    ...cursorPaging,
  });
}

export function useApprovals() {
  const brand = useSelectedBrand();
  return useInfiniteQuery({
    queryKey: adminKeys.approvals(brand),
    queryFn: async ({ pageParam }): Promise<Page<WaitingAccount>> => {
      const found = await page<Omit<WaitingAccount, 'id'>>('admin/approvals', pageParam, 'accounts');
      return { ...found, items: found.items.map((a) => ({ ...a, id: a.accountId })) };
    },
    ...cursorPaging,
  });
}

export function useIssueReports() {
  const brand = useSelectedBrand();
  return useInfiniteQuery({
    queryKey: adminKeys.issues(brand),
    queryFn: ({ pageParam }) => page<IssueReport>('admin/issue-reports', pageParam, 'reports'),
    ...cursorPaging,
  });
}

export function useAuditLog() {
  const brand = useSelectedBrand();
  return useInfiniteQuery({
    queryKey: adminKeys.audit(brand),
    queryFn: ({ pageParam }) => page<AuditEntry>('admin/audit', pageParam, 'entries'),
    ...cursorPaging,
  });
}

export function useRefundPreview(accountId: string | null) {
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: adminKeys.refund(brand, accountId ?? ''),
    queryFn: () => api.get<RefundPreview>(`admin/accounts/${encodeURIComponent(accountId ?? '')}/refund`),
    enabled: accountId !== null,
    staleTime: 0,
  });
}

export function useSiteSettings() {
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: adminKeys.settings(brand),
    queryFn: () => api.get<SiteSettings>('admin/settings'),
    staleTime: 0,
  });
}

export const adminActions = {
  approve: (accountId: string) =>
    api.post<{ approved: boolean; released: number; plan: Plan }>(`admin/approvals/${encodeURIComponent(accountId)}/approve`),
  refuse: (accountId: string, reason: string) =>
    api.post<{ refused: boolean; cancelledRequests: number; plan: Plan }>(
      `admin/approvals/${encodeURIComponent(accountId)}/refuse`,
      { reason },
    ),
  requireApproval: (accountId: string) =>
    api.post<{ plan: Plan }>(`admin/accounts/${encodeURIComponent(accountId)}/require-approval`),
  grantTrial: (accountId: string) =>
    api.post<{
      plan: Plan;
      credits: { available: number; total: number; plan?: { trialEndsOn?: string | null } };
    }>(
      `admin/accounts/${encodeURIComponent(accountId)}/grant`,
      { kind: 'trial' },
    ),
  refund: (accountId: string) => api.post<RefundResult>(`admin/accounts/${encodeURIComponent(accountId)}/refund`),
  gift: (input: GiftInput) =>
    api.post<{ credits: { available: number; total: number } }>('admin/credits/grant', input),
  saveSettings: (change: Partial<SiteSettings>) => api.put<SiteSettings>('admin/settings', change),
};

/** GET admin/collaborations: how many are in each stored status, and how many were proposed each month. */
export interface CollaborationFigures {
  readonly byStatus: Readonly<Record<string, number>>;
  readonly thisMonth: number;
  readonly byMonth: readonly { readonly month: string; readonly proposed: number }[];
}

export function useCollaborationFigures() {
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: adminKeys.collaborations(brand),
    queryFn: () => api.get<CollaborationFigures>('admin/collaborations'),
  });
}
