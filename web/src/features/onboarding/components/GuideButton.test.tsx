import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { VideoGuide } from '../api/videos';

function guide(slug: string, title: string, pageNames: string[], overrides: Partial<VideoGuide> = {}): VideoGuide {
  return {
    slug,
    title,
    videoId: null,
    type: 'youtube',
    pageNames,
    ignore: false,
    description: `All about ${title.toLowerCase()}.`,
    outline: [`First point of ${title}`],
    poster: `/videos/${slug}.svg`,
    embedUrl: null,
    watchUrl: null,
    watched: false,
    ...overrides,
  };
}

const CONNECTIONS = guide('connections', 'From connection to collaboration', ['connections']);
const MATCHES = guide('matches', 'Reading your matches', ['matches'], {
  videoId: 'Tandem_0001',
  embedUrl: 'https://www.youtube-nocookie.com/embed/Tandem_0001?rel=0',
  watchUrl: 'https://www.youtube.com/watch?v=Tandem_0001',
});
const SENDING = guide('sending-requests', 'Sending a request that gets a yes', ['matches', 'requests']);
const HIDDEN = guide('old', 'An old guide', ['declines'], { ignore: true });

function open(path: string) {
  signIn();
  const api = mockApi({
    ...shellRoutes(),
    'GET videos': { videos: [CONNECTIONS, MATCHES, SENDING, HIDDEN] },
    'GET connections': { items: [], nextCursor: null },
    'GET declines?dir=out': { items: [], nextCursor: null },
    'PUT users/video-view/connections': { slug: 'connections', watched: true },
    'PUT users/video-view/matches': { slug: 'matches', watched: true },
  });
  return { api, ...renderRoute(path) };
}

describe('GuideButton (top bar)', () => {
  it("opens the page's guide; marking it watched records the view and shows on the button", async () => {
    const { user, api } = open('/connections');
    await user.click(await screen.findByRole('button', { name: 'Guide: From connection to collaboration' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'From connection to collaboration' }));
    expect(dialog.getByText('First point of From connection to collaboration')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Mark as watched' }));
    expect(await dialog.findByText('Watched')).toBeInTheDocument();
    expect(api.calls('PUT users/video-view/connections')).toHaveLength(1);

    await user.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(
      screen.getByRole('button', { name: 'Guide: From connection to collaboration (watched)' }),
    ).toBeInTheDocument();
  });

  it('lists just the page’s guides when it has several; playing a recorded one records the view', async () => {
    const { user, api } = open('/matches');
    await user.click(await screen.findByRole('button', { name: 'Guide: 2 videos for this page' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Video Guides' }));
    expect(
      within(dialog.getByRole('list', { name: 'Video guides' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Reading your matches', 'Sending a request that gets a yes']);
    await user.click(dialog.getByRole('button', { name: 'Reading your matches' }));
    expect(await dialog.findByTitle('Video: Reading your matches')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/Tandem_0001?rel=0',
    );
    await waitFor(() => {
      expect(api.calls('PUT users/video-view/matches')).toHaveLength(1);
    });
  });

  it('is not shown on a page without a guide', async () => {
    const { api } = open('/declines');
    await screen.findByRole('heading', { level: 1, name: 'Declines' });
    await waitFor(() => {
      expect(api.calls('GET videos')).toHaveLength(1);
    });
    expect(screen.queryByRole('button', { name: /^Guide/ })).not.toBeInTheDocument();
  });
});
