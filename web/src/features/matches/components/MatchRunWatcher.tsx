import { lazy, Suspense } from 'react';
import { useDashboard } from '@/lib/session-state';
import { useFollowedRuns } from '../api/followed-runs';

// The polling and what a run's end does load when there is a run to follow (BENCH web_initial_js_gz_kb).
const MatchRunPolls = lazy(() => import('./MatchRunPolls').then((m) => ({ default: m.MatchRunPolls })));

/**
 * Mounted once by the app shell: follows every match run started in this session and
 * the one the dashboard says is still outstanding for the selected brand, until each
 * ends. Renders nothing.
 */
export function MatchRunWatcher() {
  const { data } = useDashboard();
  const runId = data?.matchRunOutstanding ? (data.matchRunId ?? null) : null;
  const brandId = data?.dashboard?.brandId ?? null;
  const runs = useFollowedRuns();
  const outstanding = runId !== null && brandId !== null ? { runId, brandId } : null;
  if (!outstanding && runs.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <MatchRunPolls outstanding={outstanding} runs={runs} />
    </Suspense>
  );
}
