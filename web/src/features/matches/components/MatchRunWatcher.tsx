import { useEffect } from 'react';
import { useDashboard } from '@/features/dashboard/api/dashboard';
import { resetMatchRuns, watchMatchRun } from '../api/match-run';

/**
 * Mounted once by the app shell: when the dashboard says a match run is still
 * outstanding for the selected brand, follow it until it ends. Renders nothing.
 */
export function MatchRunWatcher() {
  const { data } = useDashboard();
  const runId = data?.matchRunOutstanding ? (data.matchRunId ?? null) : null;
  const brandId = data?.dashboard?.brandId ?? null;

  useEffect(() => {
    if (runId !== null && brandId !== null) watchMatchRun(runId, brandId);
  }, [runId, brandId]);

  // Leaving the signed-in app (sign-out) stops every poll.
  useEffect(() => resetMatchRuns, []);

  return null;
}
