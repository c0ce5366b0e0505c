import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { cursorPaging, withCursor, type Page } from '@/lib/paging';
import { useSelectedBrand } from '@/lib/session';
import { showToast } from '@/lib/toast';
import { adminKeys } from './keys';

/** The Reports queue (issue 27): brands members reported, and suspended brands. */

export type CaseStatus = 'open' | 'suspended';
export type BrandAction = 'dismiss' | 'warn' | 'suspend' | 'lift';

export interface BrandReport {
  readonly reason: string;
  readonly reasonLabel: string;
  readonly text: string;
  readonly at: string | null;
  readonly reporter: { readonly email: string; readonly brandId: number; readonly brandName: string };
}

export interface ReportCase {
  /** The brand's id (what the list is keyed by). */
  readonly id: number;
  readonly brand: { readonly id: number; readonly name: string };
  readonly status: CaseStatus;
  readonly openedAt: string;
  readonly reports: readonly BrandReport[];
}

export interface ReportedBrand {
  readonly brand: { readonly id: number; readonly name: string; readonly category: string; readonly accountId: string; readonly suspended: boolean };
  readonly case: Omit<ReportCase, 'id'> | null;
  readonly recentRequests: readonly { readonly id: string; readonly to: string; readonly status: string; readonly at: string | null; readonly isPitch: boolean }[];
}

async function casesPage(status: CaseStatus, cursor: string | null): Promise<Page<ReportCase>> {
  const body = await api.get<{ cases?: Omit<ReportCase, 'id'>[]; nextCursor?: string | null }>(
    withCursor(`admin/reports?status=${status}`, cursor),
  );
  const items = (body.cases ?? []).map((item) => ({ ...item, id: item.brand.id }));
  return { items, nextCursor: typeof body.nextCursor === 'string' ? body.nextCursor : null };
}

export function useReportCases(status: CaseStatus) {
  const brand = useSelectedBrand();
  return useInfiniteQuery({
    queryKey: adminKeys.reports(brand, status),
    queryFn: ({ pageParam }) => casesPage(status, pageParam),
    ...cursorPaging,
  });
}

export function useReportedBrand(brandId: number | null) {
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: adminKeys.reportedBrand(brand, brandId ?? 0),
    queryFn: () => api.get<ReportedBrand>(`admin/reports/${brandId}`),
    enabled: brandId !== null,
  });
}

const DONE: Readonly<Record<BrandAction, string>> = {
  dismiss: 'Reports dismissed',
  warn: 'Warning sent to the owner',
  suspend: 'Brand suspended',
  lift: 'Suspension lifted',
};

/** Dismiss, warn, suspend or lift; every action is in the audit log. */
export function useBrandAction() {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast("We couldn't do that"),
    mutationFn: ({ brandId, action, text }: { brandId: number; action: BrandAction; text?: string }) =>
      api.post<{ done: BrandAction }>(`admin/reports/${brandId}/action`, { action, text }),
    onSuccess: (_answer, { action }) => {
      showToast({ tone: 'success', title: DONE[action] });
      void client.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
