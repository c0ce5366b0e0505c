import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { MATCH_RUN_POLL_MS } from '../api/match-run';
import { matchCard, matchesServer } from '../test-fixtures';

afterEach(() => {
  vi.useRealTimers();
});

const card = (name: string) => screen.getByRole('article', { name });

describe('A save clicked while the lists are asked for again after a run', () => {
  it('lands: the refetch that read the lists before the save does not put the card back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const server = matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })], { runId: 'r1' });
    const api = mockApi({
      ...shellRoutes(),
      ...server.routes,
    });
    const { user } = renderRoute('/matches');
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(await screen.findByText('Finding new matches')).toBeInTheDocument();

    // The run ends: the lists are asked for again, and that read is slow.
    server.hold();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MATCH_RUN_POLL_MS);
    });
    await waitFor(() => {
      expect(api.calls('GET matches?list=potentials')).toHaveLength(2);
    });
    expect(screen.getByRole('button', { name: 'Find new matches' })).toBeEnabled();

    // The member saves while it is on its way; the server writes the save, then the read answers.
    await user.click(within(card('Bean Bros')).getByRole('button', { name: 'Save Bean Bros' }));
    await waitFor(() => {
      expect(api.calls('PUT matches/21/saved')).toHaveLength(1);
    });
    await act(async () => {
      server.release();
      await vi.advanceTimersByTimeAsync(0);
    });

    // Once nothing is loading any more, the card is saved and Saved counts it.
    const list = screen.getByRole('list', { name: 'Potential matches' });
    await waitFor(() => {
      expect(list).toHaveAttribute('aria-busy', 'false');
      expect(within(card('Bean Bros')).getByText('Saved', { exact: true })).toBeInTheDocument();
    });
    expect(within(card('Bean Bros')).getByRole('button', { name: 'Unsave Bean Bros' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Saved 1' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(server.saved).toEqual(new Set([21]));
  });

  it('tells the member when that save fails, and the card is as it was', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const server = matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })], { runId: 'r1' });
    mockApi({
      ...shellRoutes(),
      ...server.routes,
      'PUT matches/21/saved': jsonResponse({ error: 'Service unavailable' }, 503),
    });
    const { user } = renderRoute('/matches');
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    server.hold();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MATCH_RUN_POLL_MS);
    });

    await user.click(within(card('Bean Bros')).getByRole('button', { name: 'Save Bean Bros' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not save');
    expect(alert).toHaveTextContent('Service unavailable');
    await act(async () => {
      server.release();
      await vi.advanceTimersByTimeAsync(0);
    });
    const list = screen.getByRole('list', { name: 'Potential matches' });
    await waitFor(() => {
      expect(list).toHaveAttribute('aria-busy', 'false');
    });
    expect(within(card('Bean Bros')).getByRole('button', { name: 'Save Bean Bros' })).toBeEnabled();
    expect(within(card('Bean Bros')).queryByText('Saved', { exact: true })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Saved 0' })).toBeInTheDocument();
  });

  it('tells the member when a dismiss fails meanwhile, and the card is back in its place', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const server = matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })], { runId: 'r1' });
    mockApi({
      ...shellRoutes(),
      ...server.routes,
      'PUT matches/21/dismissed': jsonResponse({ error: 'Service unavailable' }, 503),
    });
    const { user } = renderRoute('/matches');
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    server.hold();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MATCH_RUN_POLL_MS);
    });

    await user.click(within(card('Bean Bros')).getByRole('button', { name: 'Dismiss Bean Bros' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not dismiss');
    expect(alert).toHaveTextContent('Service unavailable');
    await act(async () => {
      server.release();
      await vi.advanceTimersByTimeAsync(0);
    });
    const list = screen.getByRole('list', { name: 'Potential matches' });
    await waitFor(() => {
      expect(list).toHaveAttribute('aria-busy', 'false');
    });
    const names = within(list)
      .getAllByRole('article')
      .map((article) => article.querySelector('h3')?.textContent);
    expect(names).toEqual(['Bean Bros', 'Soap Co']);
    expect(screen.queryByText(/You dismissed/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Potentials 2' })).toBeInTheDocument();
  });
});
