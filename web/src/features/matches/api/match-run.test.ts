import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadDashboard } from '@/features/dashboard/api/dashboard';
import { getToasts } from '@/lib/toast';
import { setSelectedBrand } from '@/lib/session';
import { dashboardBody, mockApi } from '@/testing/api-mock';
import { jsonResponse } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import {
  findNewMatches,
  getBrandRunState,
  MATCH_RUN_POLL_MS,
  resetMatchRuns,
  watchMatchRun,
} from './match-run';

const RUNNING = { status: 'running', message: "We're finding brands that fit you." };
const DONE = { status: 'done', message: 'Your matches are up to date: 3 new matches.', dashboard: dashboardBody() };

/** A run-check route answering `answers` in turn (the last one repeats). */
function runCheck(answers: readonly unknown[]) {
  let call = 0;
  return () => answers[Math.min(call++, answers.length - 1)];
}

async function tick(ms = MATCH_RUN_POLL_MS) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('match-run polling', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    signIn();
  });

  afterEach(() => {
    resetMatchRuns();
    vi.useRealTimers();
  });

  it('checks every 3 s until done, then refreshes the dashboard and shows the message', async () => {
    setSelectedBrand(1);
    const api = mockApi({
      'GET matching/run-check/r1/1': runCheck([RUNNING, RUNNING, DONE]),
      'GET dashboard/1': dashboardBody(),
    });
    watchMatchRun('r1', 1);
    expect(getBrandRunState('1').active?.runId).toBe('r1');

    await tick(MATCH_RUN_POLL_MS - 1);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(0);
    await tick(1);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(1);
    // The path's brand travels in the brand header too (the server refuses a mismatch).
    expect(api.calls('GET matching/run-check/r1/1')[0]?.headers.get('X-Brand-Id')).toBe('1');
    expect(getBrandRunState('1').active?.message).toBe(RUNNING.message);
    await tick();
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(3);
    expect(getBrandRunState('1')).toMatchObject({ active: null, finished: 1 });
    expect(api.calls('GET dashboard/1')).toHaveLength(1);
    expect(getToasts()[0]).toMatchObject({ title: 'Matches updated', message: DONE.message, tone: 'success' });

    await tick(MATCH_RUN_POLL_MS * 5);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(3);
  });

  it('says nothing when another brand is selected by the time the run ends', async () => {
    setSelectedBrand(1);
    const api = mockApi({
      'GET matching/run-check/r1/1': runCheck([RUNNING, DONE]),
      'GET dashboard/2': dashboardBody({ dashboard: { brandId: 2, brandName: 'Bean Bros' } }),
    });
    watchMatchRun('r1', 1);
    await tick();
    setSelectedBrand(2);
    await tick();
    expect(getBrandRunState('1').active).toBeNull();
    expect(api.calls('GET dashboard/2')).toHaveLength(1);
    expect(getToasts()).toEqual([]);
  });

  it("resolves the 'default' brand through the dashboard before comparing", async () => {
    const api = mockApi({
      'GET dashboard': dashboardBody({ dashboard: { brandId: 7, brandName: 'Oat & Co' } }),
      'GET matching/run-check/r1/7': DONE,
    });
    await reloadDashboard('default');
    watchMatchRun('r1', 7);
    await tick();
    expect(api.calls('GET matching/run-check/r1/7')[0]?.headers.get('X-Brand-Id')).toBe('7');
    expect(getToasts()[0]?.title).toBe('Matches updated');
  });

  it("ends a failed run with its message and doesn't poll it again", async () => {
    setSelectedBrand(1);
    const failed = { status: 'failed', message: "We couldn't update your matches this time." };
    const api = mockApi({ 'GET matching/run-check/r1/1': failed, 'GET dashboard/1': dashboardBody() });
    watchMatchRun('r1', 1);
    await tick();
    expect(getToasts()[0]).toMatchObject({ tone: 'error', title: 'Matches not updated', message: failed.message });
    watchMatchRun('r1', 1); // a stale dashboard naming the same run
    await tick(MATCH_RUN_POLL_MS * 3);
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(1);
  });

  it('keeps polling through a network blip', async () => {
    setSelectedBrand(1);
    const api = mockApi({
      'GET matching/run-check/r1/1': runCheck([jsonResponse({ error: 'Unavailable' }, 503), DONE]),
      'GET dashboard/1': dashboardBody(),
    });
    watchMatchRun('r1', 1);
    await tick();
    expect(getBrandRunState('1').active).not.toBeNull();
    await tick();
    expect(api.calls('GET matching/run-check/r1/1')).toHaveLength(2);
    expect(getBrandRunState('1').active).toBeNull();
  });

  it('starts a run on demand and follows it', async () => {
    setSelectedBrand(1);
    const api = mockApi({
      'POST matching/run/1': jsonResponse({ runId: 'r9', status: 'queued', message: 'Finding' }, 202),
      'GET matching/run-check/r9/1': DONE,
      'GET dashboard/1': dashboardBody(),
    });
    await findNewMatches(1);
    expect(api.calls('POST matching/run/1')[0]?.headers.get('X-Brand-Id')).toBe('1');
    expect(getBrandRunState('1').active?.runId).toBe('r9');
    await tick();
    expect(getBrandRunState('1').active).toBeNull();
  });
});
