import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { useSelectedBrand } from '@/lib/session';
import { showToast } from '@/lib/toast';

/**
 * Blocking and reporting a brand (issue 27). Blocks work both ways and silently: once blocked,
 * neither brand sees the other anywhere, so every list of the selected brand is loaded again.
 */

export interface BlockedBrand {
  readonly id: number;
  readonly name: string;
  readonly nameVisible: boolean;
  readonly category: string;
  readonly logoUrl: string | null;
}

/** The reasons a member picks from (the API's values and what the member reads). */
export const REPORT_REASONS = [
  { value: 'spam', label: 'Spam' },
  { value: 'misleading', label: 'Misleading profile' },
  { value: 'inappropriate', label: 'Inappropriate content' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'other', label: 'Something else' },
] as const;

export type ReportReason = (typeof REPORT_REASONS)[number]['value'];
export const REPORT_TEXT_MAX = 1000;

export const trustKeys = {
  blocked: (brand: string) => ['trust', brand, 'blocked'] as const,
};

export function fetchBlocked(brand: string): Promise<{ blocked: BlockedBrand[] }> {
  return api.get('users/blocked', asBrand(brand));
}

export function useBlockedBrands() {
  const brand = useSelectedBrand();
  return useQuery({ queryKey: trustKeys.blocked(brand), queryFn: () => fetchBlocked(brand) });
}

/** Block (blocked: true) or unblock another brand as the selected brand. */
export function useBlockBrand() {
  const brand = useSelectedBrand();
  const client = useQueryClient();
  return useMutation({
    meta: errorToast(({ blocked }: { blocked: boolean }) => (blocked ? "We couldn't block this brand" : "We couldn't unblock this brand")),
    // `name`: the name the member saw, so Blocked brands says whom they blocked (the server keeps
    // it only when it is the brand's real name).
    mutationFn: ({ brandId, blocked, name }: { brandId: number; blocked: boolean; name?: string }) =>
      blocked
        ? api.post<{ blocked: boolean }>(`brands/${brandId}/block`, name === undefined ? undefined : { name }, asBrand(brand))
        : api.delete<{ blocked: boolean }>(`brands/${brandId}/block`, asBrand(brand)),
    onSuccess: (_answer, { blocked }) => {
      showToast({
        tone: 'success',
        title: blocked ? 'Brand blocked' : 'Brand unblocked',
        message: blocked ? 'You and this brand no longer see each other on Tandem.' : undefined,
      });
      // Lists, counts and credits of every screen may change (a cancelled request's credit).
      void client.invalidateQueries();
    },
  });
}

/** Report another brand to the team; the answer thanks the member. */
export function useReportBrand() {
  const brand = useSelectedBrand();
  return useMutation({
    // The report form shows its own failure (a clear message beside the fields).
    mutationFn: ({ brandId, reason, text }: { brandId: number; reason: ReportReason; text: string }) =>
      api.post<{ message: string }>(`brands/${brandId}/report`, { reason, text }, asBrand(brand)),
  });
}

/** The owner of a suspended brand replies to the team (the issue reports the admins read). */
export function useReplyToTeam() {
  const brand = useSelectedBrand();
  return useMutation({
    // The notice shows its own failure under the box.
    mutationFn: (text: string) =>
      api.post<{ message: string }>('issues/report', { description: text, path: `suspended brand ${brand}` }, asBrand(brand)),
  });
}
