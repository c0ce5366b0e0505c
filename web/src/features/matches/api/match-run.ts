import { useSyncExternalStore } from 'react';
import { asBrand } from '@/features/brands/api/brands';
import { dashboardResource, reloadDashboard, type DashboardResponse } from '@/features/dashboard/api/dashboard';
import { api, ApiError, SessionEndedError } from '@/lib/api';
import { getSelectedBrand } from '@/lib/session';
import { showToast } from '@/lib/toast';

/**
 * Match runs (SPEC section 4 "Matching run"): a started run is polled every 3 s
 * until its status is 'done' (or 'failed'), then the dashboard is refreshed. Its
 * message is shown only if the same brand is still selected.
 *
 * The watcher lives outside React so a run keeps being followed while the member
 * moves between pages; one run per brand is followed at a time.
 */
export const MATCH_RUN_POLL_MS = 3000;
/** Consecutive failed checks (network, 5xx) before giving up on a run. */
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

export interface ActiveRun {
  readonly runId: string;
  readonly brandId: string;
  readonly status: string;
  readonly message: string;
}

export interface BrandRunState {
  /** The run being followed for this brand, if any. */
  readonly active: ActiveRun | null;
  /** Goes up each time a run of this brand ends, so lists know to reload. */
  readonly finished: number;
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

let active = new Map<string, ActiveRun>();
/** Runs already seen to end: a stale dashboard naming one does not start polling it again. */
let ended = new Set<string>();
let finished = new Map<string, number>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();
const snapshots = new Map<string, BrandRunState>();

function publish(): void {
  snapshots.clear();
  listeners.forEach((listener) => {
    listener();
  });
}

/** The brand the member acts for now, as an id ('default' resolved through the dashboard). */
export function currentBrandId(): string | null {
  const selected = getSelectedBrand();
  if (selected !== 'default') return selected;
  const id = dashboardResource.getState().data?.dashboard?.brandId;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

function stopTimer(brandId: string): void {
  const timer = timers.get(brandId);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(brandId);
}

function finish(run: ActiveRun, status: 'done' | 'failed' | 'gone', message: string): void {
  stopTimer(run.brandId);
  ended.add(run.runId);
  active = new Map(active);
  active.delete(run.brandId);
  finished = new Map(finished);
  finished.set(run.brandId, (finished.get(run.brandId) ?? 0) + 1);
  publish();
  if (status === 'gone') return;
  void reloadDashboard(getSelectedBrand());
  if (message && currentBrandId() === run.brandId) {
    showToast(
      status === 'done'
        ? { tone: 'success', title: 'Matches updated', message }
        : { tone: 'error', title: 'Matches not updated', message },
    );
  }
}

async function check(run: ActiveRun, failures: number): Promise<void> {
  timers.delete(run.brandId);
  if (active.get(run.brandId)?.runId !== run.runId) return;
  let answer: MatchRunCheck;
  try {
    answer = await checkMatchRun(run.runId, run.brandId);
  } catch (error) {
    if (active.get(run.brandId)?.runId !== run.runId) return;
    if (error instanceof SessionEndedError) {
      finish(run, 'gone', '');
    } else if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      finish(run, 'failed', error.message);
    } else if (failures + 1 >= MAX_CHECK_FAILURES) {
      finish(run, 'failed', CHECK_FAILED_MESSAGE);
    } else {
      schedule(run, failures + 1);
    }
    return;
  }
  if (active.get(run.brandId)?.runId !== run.runId) return;
  if (answer.status === 'done' || answer.status === 'failed') {
    finish(run, answer.status, answer.message);
    return;
  }
  const next: ActiveRun = { ...run, status: answer.status, message: answer.message };
  active = new Map(active);
  active.set(run.brandId, next);
  publish();
  schedule(next, 0);
}

function schedule(run: ActiveRun, failures: number): void {
  stopTimer(run.brandId);
  timers.set(
    run.brandId,
    setTimeout(() => {
      void check(run, failures);
    }, MATCH_RUN_POLL_MS),
  );
}

/**
 * Follows a run until it ends. Calling it again for the run already followed does
 * nothing; a newer run of the same brand replaces the older one.
 */
export function watchMatchRun(runId: string, brandId: number | string, message = ''): void {
  const brand = String(brandId);
  if (active.get(brand)?.runId === runId || ended.has(runId)) return;
  const run: ActiveRun = { runId, brandId: brand, status: 'queued', message };
  active = new Map(active);
  active.set(brand, run);
  publish();
  schedule(run, 0);
}

/** Starts a run on demand (POST matching/run/{brand}) and follows it. */
export async function findNewMatches(brandId: number | string): Promise<StartedRun> {
  const started = await startMatchRun(brandId);
  if (started.status === 'done' || started.status === 'failed') {
    const run: ActiveRun = { runId: started.runId, brandId: String(brandId), status: started.status, message: '' };
    finish(run, started.status, started.message);
  } else {
    watchMatchRun(started.runId, brandId, started.message);
  }
  return started;
}

export function getBrandRunState(brandId: string | null): BrandRunState {
  const key = brandId ?? '';
  let snapshot = snapshots.get(key);
  if (!snapshot) {
    snapshot = { active: active.get(key) ?? null, finished: finished.get(key) ?? 0 };
    snapshots.set(key, snapshot);
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The run followed for a brand, re-rendering when it changes or ends. */
export function useMatchRun(brandId: string | null): BrandRunState {
  return useSyncExternalStore(
    subscribe,
    () => getBrandRunState(brandId),
    () => getBrandRunState(brandId),
  );
}

/** Stops following every run (sign-out, tests). */
export function resetMatchRuns(): void {
  [...timers.keys()].forEach(stopTimer);
  active = new Map();
  finished = new Map();
  ended = new Set();
  publish();
}
