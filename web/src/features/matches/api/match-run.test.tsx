import { useQueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToasts } from '@/lib/toast';
import { setSelectedBrand } from '@/lib/session';
import { dashboardBody, mockApi, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderWithProviders } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { MatchRunWatcher } from '../components/MatchRunWatcher';
import { CHECK_FAILED_MESSAGE, findNewMatches, MATCH_RUN_POLL_MS, MAX_CHECK_FAILURES, useMatchRun } from './match-run';

const RUNNING = { status: 'running', message: "We're finding brands that fit you." };
const DONE = { status: 'done', message: 'Your matches are up to date: 3 new matches.', dashboard: dashboardBody() };

/** A route answering `answers` in turn (the last one repeats). */
function inTurn(answers: readonly unknown[]) {
  let call = 0;
  return () => answers[Math.min(call++, answers.length - 1)];
}

/** The dashboard reports run r1 of brand `brandId` as outstanding the first time, then not. */
function outstandingOnce(brandId: number, runId = 'r1') {
  return inTurn([
    dashboardBody({ dashboard: { brandId, brandName: 'Oat & Co' }, matchRunOutstanding: true, matchRunId: runId }),
    dashboardBody({ dashboard: { brandId, brandName: 'Oat & Co' } }),
  ]);
}

/** Shows the followed run of brand 1 and starts one on demand, as the Matches page does. */
function RunProbe() {
  const client = useQueryClient();
  const run = useMatchRun('1');
  return (
    <>
      <p>{run ? `following ${run.runId}: ${run.message}` : 'no run'}</p>
      <button type="button" onClick={() => void findNewMatches(client, '1', () => '1')}>
        Find new matches
      </button>
    </>
  );
}

/**
 * Moves the fake clock on by `ms`, then lets what that set off settle: React renders at
 * the end of act(), and TanStack Query batches its notifications through a 0 ms timer
 * (which the fake clock runs 1 ms later), so a few 1 ms rounds follow.
 */
async function tick(ms = MATCH_RUN_POLL_MS) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  for (let round = 0; round < 5; round++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
  }
}

function start(routes: Record<string, MockAnswer>) {
  const api = mockApi(routes);
  renderWithProviders(
    <>
      <MatchRunWatcher />
      <RunProbe />
    </>,
  );
  return api;
}

describe('match-run polling (MatchRunWatcher)', () => {
  // The watcher loads its polling on demand (React.lazy): loaded once before the fake clock
  // starts, as a browser has it cached after the first run, so each test times only the polling.
  beforeAll(async () => {
    await import('../components/MatchRunPolls');
  });

  beforeEach(() => {
    vi.useFakeTimers();
    signIn();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every 3 s until done, then refreshes the dashboard and shows the message', async () => {
    setSelectedBrand(1);
    const api = start({
      'GET dashboard/1': outstandingOnce(1),
      'GET matching/run-check/r1/1': inTurn([RUNNING, RUNNING, DONE]),
    });
    await tick(0);
    expect(screen.getByText('following r1:')).toBeInTheDocument();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(0);

    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(1);
    // The path's brand travels in the brand header too (the server refuses a mismatch).
    expect(api.calls('GET matching/run-check/r1/1')[0]?.headers.get('X-Brand-Id')).toBe('1');
    expect(screen.getByText(`following r1: ${RUNNING.message}`)).toBeInTheDocument();
    await tick();
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(3);
    expect(screen.getByText('no run')).toBeInTheDocument();
    expect(api.calls('GET dashboard/1')).toHaveLength(2);
    expect(getToasts()).toEqual([expect.objectContaining({ title: 'Matches updated', message: DONE.message, tone: 'success' })]);

    await tick(MATCH_RUN_POLL_MS * 2);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(3);
    expect(getToasts()).toHaveLength(1);
  });

  it('says nothing when another brand is selected by the time the run ends', async () => {
    setSelectedBrand(1);
    const api = start({
      'GET dashboard/1': outstandingOnce(1),
      'GET dashboard/2': dashboardBody({ dashboard: { brandId: 2, brandName: 'Bean Bros' } }),
      'GET matching/run-check/r1/1': inTurn([RUNNING, DONE]),
    });
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(1);
    act(() => {
      setSelectedBrand(2);
    });
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(2);
    expect(screen.getByText('no run')).toBeInTheDocument();
    expect(api.calls('GET dashboard/2').length).toBeGreaterThanOrEqual(1);
    expect(getToasts()).toEqual([]);
  });

  it("resolves the 'default' brand through the dashboard before comparing", async () => {
    const api = start({
      'GET dashboard': outstandingOnce(7),
      'GET matching/run-check/r1/7': DONE,
    });
    await tick();
    expect(api.calls('GET matching/run-check/r1/7')[0]?.headers.get('X-Brand-Id')).toBe('7');
    expect(getToasts()[0]?.title).toBe('Matches updated');
  });

  it("ends a failed run with its message and doesn't poll it again when a stale dashboard names it", async () => {
    setSelectedBrand(1);
    const failed = { status: 'failed', message: "We couldn't update your matches this time." };
    const stale = dashboardBody({ matchRunOutstanding: true, matchRunId: 'r1' });
    const api = start({ 'GET dashboard/1': stale, 'GET matching/run-check/r1/1': failed });
    await tick();
    expect(getToasts()[0]).toMatchObject({ tone: 'error', title: 'Matches not updated', message: failed.message });
    expect(api.calls('GET dashboard/1')).toHaveLength(2); // refreshed, and still naming r1
    await tick(MATCH_RUN_POLL_MS * 3);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(1);
    expect(screen.getByText('no run')).toBeInTheDocument();
  });

  it('keeps polling through a network blip', async () => {
    setSelectedBrand(1);
    const api = start({
      'GET dashboard/1': outstandingOnce(1),
      'GET matching/run-check/r1/1': inTurn([jsonResponse({ error: 'Unavailable' }, 503), DONE]),
    });
    await tick();
    expect(screen.getByText('following r1:')).toBeInTheDocument();
    expect(getToasts()).toEqual([]);
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(2);
    expect(screen.getByText('no run')).toBeInTheDocument();
    expect(getToasts()[0]?.title).toBe('Matches updated');
  });

  it(`gives up after ${MAX_CHECK_FAILURES} failed checks in a row`, async () => {
    setSelectedBrand(1);
    const api = start({
      'GET dashboard/1': outstandingOnce(1),
      'GET matching/run-check/r1/1': jsonResponse({ error: 'Unavailable' }, 503),
    });
    await tick(MATCH_RUN_POLL_MS * (MAX_CHECK_FAILURES - 1));
    expect(screen.getByText('following r1:')).toBeInTheDocument();
    expect(getToasts()).toEqual([]);
    await tick(MATCH_RUN_POLL_MS + 1);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(MAX_CHECK_FAILURES);
    expect(getToasts()[0]).toMatchObject({ tone: 'error', title: 'Matches not updated', message: CHECK_FAILED_MESSAGE });
    await tick(MATCH_RUN_POLL_MS * 3);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(MAX_CHECK_FAILURES);
  });

  it('starts a run on demand and follows it; a newer run of the brand replaces the older one', async () => {
    setSelectedBrand(1);
    const api = start({
      'GET dashboard/1': dashboardBody(),
      'POST matching/run/1': inTurn([
        jsonResponse({ runId: 'r8', status: 'queued', message: 'Finding' }, 202),
        jsonResponse({ runId: 'r9', status: 'queued', message: 'Finding again' }, 202),
      ]),
      'GET matching/run-check/r9/1': DONE,
    });
    await tick(0);
    act(() => {
      screen.getByRole('button', { name: 'Find new matches' }).click();
    });
    await tick(0);
    expect(api.calls('POST matching/run/1')[0]?.headers.get('X-Brand-Id')).toBe('1');
    expect(screen.getByText('following r8: Finding')).toBeInTheDocument();
    act(() => {
      screen.getByRole('button', { name: 'Find new matches' }).click();
    });
    await tick(0);
    expect(screen.getByText('following r9: Finding again')).toBeInTheDocument();
    await tick();
    expect(api.calls('GET matching/run-check/r8/1')).toHaveLength(0);
    expect(api.calls('GET matching/run-check/r9/1')).toHaveLength(1);
    expect(screen.getByText('no run')).toBeInTheDocument();
  });
});
