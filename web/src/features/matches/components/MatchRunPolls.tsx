import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCurrentBrandId } from '@/lib/session-state';
import { endMatchRun, followMatchRun, matchRunQuery, runOutcome, type MatchRun } from '../api/match-run';

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

export interface MatchRunPollsProps {
  /** The run the dashboard says is still outstanding for the selected brand, if any. */
  readonly outstanding: { readonly runId: string; readonly brandId: number | string } | null;
  /** The runs followed now (not ended). */
  readonly runs: readonly MatchRun[];
}

/** Follows the outstanding run, and polls every followed run until it ends. Renders nothing. */
export function MatchRunPolls({ outstanding, runs }: MatchRunPollsProps) {
  const client = useQueryClient();
  const runId = outstanding?.runId ?? null;
  const brandId = outstanding?.brandId ?? null;

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
