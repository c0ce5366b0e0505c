import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardBody, mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { MATCH_RUN_POLL_MS } from '../api/match-run';

afterEach(() => {
  vi.useRealTimers();
});

describe('MatchRunWatcher in the shell', () => {
  it('follows the run the dashboard says is outstanding, then refreshes the dashboard', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    let dashboards = 0;
    const api = mockApi({
      ...shellRoutes(),
      'GET dashboard': () => {
        dashboards += 1;
        return dashboardBody(
          dashboards === 1 ? { matchRunOutstanding: true, matchRunId: 'abc' } : { menuCounts: { matches: 4 } },
        );
      },
      'GET matching/run-check/abc/1': { status: 'done', message: 'Your matches are up to date: 4 new matches.' },
    });
    renderRoute('/');
    expect(await screen.findByText('New matches on the way')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MATCH_RUN_POLL_MS);
    });
    expect(await screen.findByText('Your matches are up to date: 4 new matches.')).toBeInTheDocument();
    expect(api.calls('GET matching/run-check/abc/1')).toHaveLength(1);
    expect(await screen.findByRole('link', { name: 'Matches (4 new)' })).toBeInTheDocument();
    expect(screen.queryByText('New matches on the way')).not.toBeInTheDocument();
  });

  it('follows no run for a feature-only member (match runs are not part of their account)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    const api = mockApi({
      ...shellRoutes({ matchRunOutstanding: true, matchRunId: 'abc' }),
      'GET matching/run-check/abc/1': { status: 'done', message: 'Your matches are up to date.' },
    });
    renderRoute('/');
    expect(await screen.findByRole('link', { name: 'Pitch Area' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MATCH_RUN_POLL_MS * 2);
    });
    expect(api.calls('GET matching/run-check/abc/1')).toHaveLength(0);
  });
});
