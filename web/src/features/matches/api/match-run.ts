import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { refreshDashboard, type DashboardResponse } from '@/lib/session-state';
import { api, ApiError, asBrand, SessionEndedError } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { showToast } from '@/lib/toast';
import { asRun, runQueries, useFollowedRuns, type MatchRun } from './followed-runs';
import { matchKeys } from './keys';

export { useFollowedRuns, type MatchRun };

/**
 * Match runs (SPEC section 4 "Matching run"): a started run is polled every 3 s until
 * its status is 'done' (or 'failed'), then the dashboard is refreshed. Its message is
 * shown only if the same brand is still selected.
 *
 * A followed run is a query in the cache (`matchKeys.run(brand, runId)`) whose data is
 * the run as last seen. `MatchRunWatcher`, mounted by the app shell, polls every run
 * that has not ended (`useQuery` with `refetchInterval`), so runs are followed while the
 * member moves between pages; one run per brand. Sign-out clears the cache, and so
 * every run.
 */
export const MATCH_RUN_POLL_MS = 3000;
/** Consecutive failed checks (network, 5xx, 429) before giving up on a run. */
export const MAX_CHECK_FAILURES = 10;
export const CHECK_FAILED_MESSAGE =
  "We couldn't check on your new matches. Refresh the page in a minute to see them.";

export interface MatchRunCheck {
  readonly status: string;
  readonly message: string;
  readonly dashboard?: DashboardResponse;
}

export interface StartedRun {
  readonly runId: string;
  readonly status: string;
  readonly message: string;
}

export function checkMatchRun(runId: string, brandId: string): Promise<MatchRunCheck> {
  return api.get<MatchRunCheck>(
    `matching/run-check/${encodeURIComponent(runId)}/${encodeURIComponent(brandId)}`,
    asBrand(brandId),
  );
}

export function startMatchRun(brandId: number | string): Promise<StartedRun> {
  return api.post<StartedRun>(`matching/run/${encodeURIComponent(String(brandId))}`, undefined, asBrand(brandId));
}

const isOver = (status: string): status is 'done' | 'failed' => status === 'done' || status === 'failed';

/** A failed check worth trying again: the network, a server error or too many requests. */
function isTransient(error: unknown): boolean {
  if (error instanceof SessionEndedError) return false;
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * The poll of one run: no check on start (the run was just seen), then one every 3 s
 * until it is over. A failed check is tried again every 3 s, up to 10 times in a row.
 */
export function matchRunQuery(brandId: string, runId: string) {
  return queryOptions({
    queryKey: matchKeys.run(brandId, runId),
    queryFn: async (): Promise<MatchRun> => {
      const answer = await checkMatchRun(runId, brandId);
      return { runId, brandId, status: answer.status, message: answer.message, ended: false };
    },
    staleTime: Infinity,
    // Ended runs stay known until sign-out: a stale dashboard naming one does not restart it.
    gcTime: Infinity,
    retry: (failures, error) => isTransient(error) && failures < MAX_CHECK_FAILURES - 1,
    retryDelay: MATCH_RUN_POLL_MS,
    refetchInterval: (query) =>
      query.state.status === 'error' || isOver(query.state.data?.status ?? '') ? false : MATCH_RUN_POLL_MS,
    refetchIntervalInBackground: true,
  });
}

/**
 * Follows a run until it ends. A run already followed, or already ended, is left as it
 * is; a newer run of the same brand replaces the older one.
 */
export function followMatchRun(client: QueryClient, runId: string, brandId: number | string, message = ''): void {
  const brand = String(brandId);
  if (client.getQueryData(matchKeys.run(brand, runId)) !== undefined) return;
  for (const query of runQueries(client, brand)) {
    if (asRun(query)?.ended === false) client.removeQueries({ queryKey: query.queryKey, exact: true });
  }
  client.setQueryData<MatchRun>(matchKeys.run(brand, runId), { runId, brandId: brand, status: 'queued', message, ended: false });
}

/** How a run ended: its final state, or null while it goes on. */
export function runOutcome(run: MatchRun, error: unknown): { status: 'done' | 'failed' | 'gone'; message: string } | null {
  if (error) {
    if (error instanceof SessionEndedError) return { status: 'gone', message: '' };
    return { status: 'failed', message: isTransient(error) ? CHECK_FAILED_MESSAGE : (error as Error).message };
  }
  const status = run.status;
  if (isOver(status)) return { status, message: run.message };
  return null;
}

/**
 * Acts on a run's end, once: the dashboards and the brand's match lists are asked for
 * again, and the message is shown when the run's brand is still the one selected.
 */
export function endMatchRun(
  client: QueryClient,
  run: MatchRun,
  outcome: { status: 'done' | 'failed' | 'gone'; message: string },
  currentBrandId: string | null,
): void {
  const key = matchKeys.run(run.brandId, run.runId);
  if (client.getQueryData<MatchRun>(key)?.ended) return;
  client.setQueryData<MatchRun>(key, { ...run, status: outcome.status, message: outcome.message, ended: true });
  if (outcome.status === 'gone') return;
  void refreshDashboard(client);
  void client.invalidateQueries({ queryKey: matchKeys.allLists(run.brandId) });
  if (outcome.message && currentBrandId === run.brandId) {
    showToast(
      outcome.status === 'done'
        ? { tone: 'success', title: 'Matches updated', message: outcome.message }
        : { tone: 'error', title: 'Matches not updated', message: outcome.message },
    );
  }
}

/** Starts a run on demand (POST matching/run/{brand}) and follows it. */
export async function findNewMatches(
  client: QueryClient,
  brandId: string,
  currentBrandId: () => string | null,
): Promise<StartedRun> {
  const started = await startMatchRun(brandId);
  const status = started.status;
  if (isOver(status)) {
    const run: MatchRun = { runId: started.runId, brandId, status, message: started.message, ended: false };
    endMatchRun(client, run, { status, message: started.message }, currentBrandId());
  } else {
    followMatchRun(client, started.runId, brandId, started.message);
  }
  return started;
}

/**
 * 'Find new matches' for one of the member's brands (null while not known: no call): starts
 * a run and follows it; a refusal is told in an error toast (meta).
 */
export function useFindNewMatches(brandId: string | null) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Could not find new matches'),
    mutationFn: () => {
      if (brandId === null) return Promise.reject(new Error('No brand is selected'));
      return findNewMatches(client, brandId, () => brandId);
    },
  });
}

/** The run followed for one brand, if any. */
export function useMatchRun(brandId: string | null): MatchRun | null {
  const runs = useFollowedRuns();
  return runs.find((run) => run.brandId === brandId) ?? null;
}
