import type { Fit } from '@/features/brands/api/brands';
import { reloadDashboard } from '@/features/dashboard/api/dashboard';
import { api } from '@/lib/api';
import { createResource } from '@/lib/resource';
import { getSelectedBrand } from '@/lib/session';
import { watchMatchRun } from './match-run';

/** docs/api.md "Matches": one suggested brand. */
export interface MatchCard {
  readonly id: number;
  readonly name: string;
  readonly nameVisible: boolean;
  readonly logoUrl: string | null;
  readonly category: string;
  readonly description: string;
  readonly reasons: readonly string[];
  readonly score: number;
  readonly fit: Fit;
  readonly saved: boolean;
  readonly isNew: boolean;
}

export type MatchList = 'potentials' | 'saved';

export interface MatchesResponse {
  readonly matches: readonly MatchCard[];
  readonly showingBrandNames: boolean;
  readonly runOutstanding: boolean;
  readonly runId: string | null;
}

export function listMatches(list: MatchList, brandIds: readonly number[] = []): Promise<MatchesResponse> {
  const filter = brandIds.length > 0 ? `&brandIds=${brandIds.join(',')}` : '';
  return api.get<MatchesResponse>(`matches?list=${list}${filter}`);
}

export function setSaved(brandId: number, saved: boolean): Promise<{ saved: boolean }> {
  const path = `matches/${brandId}/saved`;
  return saved ? api.put(path) : api.delete(path);
}

export function setDismissed(brandId: number, dismissed: boolean): Promise<{ dismissed: boolean }> {
  const path = `matches/${brandId}/dismissed`;
  return dismissed ? api.put(path) : api.delete(path);
}

/** '1,2,x,3' -> [1, 2, 3]: the numeric brand ids of a /matches/brands/{brandIds} path. */
export function parseBrandIds(raw: string | undefined): number[] {
  if (!raw) return [];
  const ids = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
  return [...new Set(ids)];
}

/** Both lists of one brand (and filter), loaded together so each tab shows its count. */
export interface MatchLists {
  readonly key: string;
  readonly potentials: readonly Match[];
  readonly saved: readonly Match[];
  readonly showingBrandNames: boolean;
}

type Match = MatchCard;

/** The resource key for a brand's lists: '12|' or '12|3,4' with a brand filter. */
export function matchListsKey(brandId: string, brandIds: readonly number[]): string {
  return `${brandId}|${brandIds.join(',')}`;
}

/**
 * The lists on the Matches page. Loading also follows a run still in progress and,
 * as listing marks new matches seen, refreshes the dashboard so the menu count drops.
 */
export const matchListsResource = createResource<MatchLists>(async (key) => {
  const [brandId = '', filter = ''] = key.split('|');
  const ids = parseBrandIds(filter);
  // One after the other: the local stack runs the API in-process and does not isolate
  // concurrent calls (see docs/decisions.md); the saved list is small and quick.
  const potentials = await listMatches('potentials', ids);
  const saved = await listMatches('saved', ids);
  if (potentials.runOutstanding && potentials.runId) watchMatchRun(potentials.runId, brandId);
  if (potentials.matches.some((match) => match.isNew)) void reloadDashboard(getSelectedBrand());
  return {
    key,
    potentials: potentials.matches,
    saved: saved.matches,
    showingBrandNames: potentials.showingBrandNames,
  };
});
