import { useMemo, useSyncExternalStore } from 'react';
import { notifyManager, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { matchKeys } from './keys';

/**
 * Which match runs are followed (./match-run.ts): on their own so the app shell can tell whether
 * there is a run to watch without loading the polling and its messages (BENCH web_initial_js_gz_kb).
 */

/** A followed run as last seen. `ended` once its end was acted on (dashboard refreshed, message shown). */
export interface MatchRun {
  readonly runId: string;
  readonly brandId: string;
  readonly status: string;
  readonly message: string;
  readonly ended: boolean;
}

export function runQueries(client: QueryClient, brandId?: string): Query[] {
  return client.getQueryCache().findAll({ queryKey: brandId === undefined ? matchKeys.all : matchKeys.runs(brandId) });
}

export function asRun(query: Query): MatchRun | null {
  const data = query.state.data as MatchRun | undefined;
  return query.queryKey[2] === 'run' && data ? data : null;
}

/** The runs being followed (not ended), re-rendering when one starts, changes or ends. */
export function useFollowedRuns(): readonly MatchRun[] {
  const client = useQueryClient();
  const signature = useSyncExternalStore(
    // Batched like TanStack's own hooks: the cache also changes while a poll renders.
    (listener) => client.getQueryCache().subscribe(notifyManager.batchCalls(listener)),
    () =>
      JSON.stringify(
        runQueries(client)
          .map(asRun)
          .filter((run): run is MatchRun => run !== null && !run.ended),
      ),
  );
  return useMemo(() => JSON.parse(signature) as MatchRun[], [signature]);
}
