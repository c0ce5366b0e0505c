import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Fit } from '@/features/brands';
import { dashboardKeys, type DashboardResponse } from '@/lib/session-state';
import { api, asBrand } from '@/lib/api';
import { matchKeys } from './keys';
import { followMatchRun } from './match-run';

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
  /** What our own requests back for the label ("Of requests sent to Great fit brands, about 4 in
   * 10 were accepted"); null until the data backs one. */
  readonly fitPromise: string | null;
  readonly saved: boolean;
  readonly isNew: boolean;
  /** How the brand answers requests ("Usually replies within a day"...); none under 3. */
  readonly replyLabels?: readonly string[];
}

export type MatchList = 'potentials' | 'saved';

export interface MatchesResponse {
  readonly matches: readonly MatchCard[];
  readonly showingBrandNames: boolean;
  readonly runOutstanding: boolean;
  readonly runId: string | null;
}

export function listMatches(brand: string, list: MatchList, brandIds: readonly number[] = []): Promise<MatchesResponse> {
  const filter = brandIds.length > 0 ? `&brandIds=${brandIds.join(',')}` : '';
  return api.get<MatchesResponse>(`matches?list=${list}${filter}`, asBrand(brand));
}

/** Saves or unsaves another brand; `asBrand` names the member's brand (else the selected one). */
export function setSaved(
  brandId: number,
  saved: boolean,
  options?: ReturnType<typeof asBrand>,
): Promise<{ saved: boolean }> {
  const path = `matches/${brandId}/saved`;
  return saved ? api.put(path, undefined, options) : api.delete(path, options);
}

/** Dismisses another brand or undoes that; `asBrand` names the member's brand (else the selected one). */
export function setDismissed(
  brandId: number,
  dismissed: boolean,
  options?: ReturnType<typeof asBrand>,
): Promise<{ dismissed: boolean }> {
  const path = `matches/${brandId}/dismissed`;
  return dismissed ? api.put(path, undefined, options) : api.delete(path, options);
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
  readonly potentials: readonly MatchCard[];
  readonly saved: readonly MatchCard[];
  readonly showingBrandNames: boolean;
}

async function loadLists(client: QueryClient, brand: string, filter: readonly number[]): Promise<MatchLists> {
  // Both at once: one trip to the server, not two (the local stack keeps each call's request
  // apart since 2026-11-22, as Lambda does; docs/decisions.md, issue 39).
  const [potentials, saved] = await Promise.all([
    listMatches(brand, 'potentials', filter),
    listMatches(brand, 'saved', filter),
  ]);
  // A run still in progress is followed (the shell's MatchRunWatcher polls it).
  if (potentials.runOutstanding && potentials.runId) followMatchRun(client, potentials.runId, brand);
  // Listing marked the new matches it showed seen on the server: the menu count drops by as
  // many here, without asking for the dashboard again (one more trip, and its three reads).
  const shownNew = potentials.matches.filter((match) => match.isNew).length;
  if (shownNew > 0) matchesSeen(client, brand, shownNew);
  return { potentials: potentials.matches, saved: saved.matches, showingBrandNames: potentials.showingBrandNames };
}

/** The cached dashboards of `brand` count `seen` fewer new matches (never below 0). */
function matchesSeen(client: QueryClient, brand: string, seen: number): void {
  client.setQueriesData<DashboardResponse>({ queryKey: dashboardKeys.all }, (dashboard) => {
    const counts = dashboard?.menuCounts;
    if (!dashboard || !counts || String(dashboard.dashboard?.brandId) !== brand) return dashboard;
    return { ...dashboard, menuCounts: { ...counts, matches: Math.max(0, (counts.matches ?? 0) - seen) } };
  });
}

/**
 * The lists on the Matches page for one of the member's brands (null: not known yet).
 * Asked for again each time the page opens, the copy from the last visit showing meanwhile.
 */
export function useMatchLists(brand: string | null, filter: readonly number[]): UseQueryResult<MatchLists> {
  return useQuery({
    queryKey: matchKeys.lists(brand ?? '', filter),
    queryFn: ({ client }) => loadLists(client, brand ?? '', filter),
    enabled: brand !== null,
    staleTime: 0,
  });
}

/** Changes the loaded lists of one brand (every filter) after the server accepted a change. */
export function updateMatchLists(client: QueryClient, brand: string, change: (lists: MatchLists) => MatchLists): void {
  client.setQueriesData<MatchLists>({ queryKey: matchKeys.allLists(brand) }, (lists) =>
    lists ? change(lists) : lists,
  );
}

/**
 * A brand was requested: it leaves the lists of the member's brand (the server no longer
 * suggests it), and the lists are asked for again (a load on its way may have read them
 * before the request).
 */
export function matchRequested(client: QueryClient, brand: string, matchId: number): void {
  updateMatchLists(client, brand, (lists) => ({
    ...lists,
    potentials: lists.potentials.filter((item) => item.id !== matchId),
    saved: lists.saved.filter((item) => item.id !== matchId),
  }));
  void client.invalidateQueries({ queryKey: matchKeys.allLists(brand) });
}
