import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCurrentBrandId, useDashboard } from '@/features/dashboard';
import { endMatchRun, followMatchRun, matchRunQuery, runOutcome, useFollowedRuns, type MatchRun } from '../api/match-run';

/** Polls one run (every 3 s, see matchRunQuery) and acts on its end. */
function RunPoll({ run }: { readonly run: MatchRun }) {
  const client = useQueryClient();
  const currentBrandId = useCurrentBrandId();
  const { data, error } = useQuery(matchRunQuery(run.brandId, run.runId));
  const outcome = runOutcome(data ?? run, error);

  useEffect(() => {
    if (outcome) endMatchRun(client, data ?? run, outcome, currentBrandId);
  }, [outcome, client, data, run, currentBrandId]);

  return null;
}

/**
 * Mounted once by the app shell: follows every match run started in this session and
 * the one the dashboard says is still outstanding for the selected brand, until each
 * ends. Renders nothing.
 */
export function MatchRunWatcher() {
  const client = useQueryClient();
  const { data } = useDashboard();
  const runId = data?.matchRunOutstanding ? (data.matchRunId ?? null) : null;
  const brandId = data?.dashboard?.brandId ?? null;
  const runs = useFollowedRuns();

  useEffect(() => {
    if (runId !== null && brandId !== null) followMatchRun(client, runId, brandId);
  }, [client, runId, brandId]);

  return (
    <>
      {runs.map((run) => (
        <RunPoll key={`${run.brandId}:${run.runId}`} run={run} />
      ))}
    </>
  );
}
