import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute, renderWithProviders } from '@/testing/render-route';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { signIn } from '@/testing/session';
import type { VideoGuide } from '../api/videos';
import { VideoGuidesPopup } from './VideoGuidesPopup';

function guide(slug: string, title: string, overrides: Partial<VideoGuide> = {}): VideoGuide {
  return {
    slug,
    title,
    videoId: null,
    type: 'youtube',
    pageNames: ['dashboard'],
    ignore: false,
    description: `All about ${title.toLowerCase()}.`,
    outline: [`First point of ${title}`, `Second point of ${title}`],
    poster: `/videos/${slug}.svg`,
    embedUrl: null,
    watchUrl: null,
    watched: false,
    ...overrides,
  };
}

const RECORDED = guide('matches', 'Reading your matches', {
  videoId: 'Tandem_0001',
  embedUrl: 'https://www.youtube-nocookie.com/embed/Tandem_0001?rel=0',
  watchUrl: 'https://www.youtube.com/watch?v=Tandem_0001',
});
const OURS = guide('notifications', 'Choosing your notifications', {
  type: 'recorded',
  poster: '/assets/guides/notifications.4c5fef382b5a.jpg',
  src: '/assets/guides/notifications.4c5fef382b5a.webm',
  captions: '/assets/guides/notifications.4c5fef382b5a.vtt',
  seconds: 25.2,
});
const WRITTEN = guide('getting-started', 'Getting started with Tandem');
const WATCHED = guide('requests', 'Sending requests', { watched: true });
const HIDDEN = guide('old', 'An old guide', { ignore: true });

function popup(routes = {}) {
  signIn();
  const api = mockApi({
    'GET videos': { videos: [WRITTEN, RECORDED, WATCHED, HIDDEN, OURS] },
    'PUT users/video-view/getting-started': { slug: 'getting-started', watched: true },
    'PUT users/video-view/notifications': { slug: 'notifications', watched: true },
    'PUT users/video-view/matches': { slug: 'matches', watched: true },
    ...routes,
  });
  const onClose = vi.fn();
  const view = renderWithProviders(<VideoGuidesPopup onClose={onClose} />);
  return { api, onClose, ...view };
}

describe('VideoGuidesPopup', () => {
  it('lists the guides (not the ignored ones), marking the watched one', async () => {
    popup();
    const list = within(await screen.findByRole('list', { name: 'Video guides' }));
    const [first, second, third] = list.getAllByRole('listitem').map((li) => within(li));
    expect([first, second, third].map((item) => item?.getByRole('button').textContent)).toEqual([
      'Getting started with Tandem',
      'Reading your matches',
      'Sending requests',
    ]);
    expect(third?.getByText('Watched')).toBeInTheDocument();
    expect(first?.queryByText('Watched')).not.toBeInTheDocument();
    expect(first?.getByText('Written guide · video coming soon')).toBeInTheDocument();
  });

  it('shows a guide without a recording as coming soon, never an empty player, and marks it watched on request', async () => {
    const { api } = popup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Getting started with Tandem' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Getting started with Tandem' }));
    expect(dialog.getByText('Video coming soon')).toBeInTheDocument();
    expect(document.querySelector('iframe')).toBeNull();
    expect(dialog.getByText('First point of Getting started with Tandem')).toBeInTheDocument();
    expect(api.calls('PUT users/video-view/getting-started')).toHaveLength(0);

    await user.click(dialog.getByRole('button', { name: 'Mark as watched' }));
    expect(await dialog.findByText('Watched')).toBeInTheDocument();
    expect(api.calls('PUT users/video-view/getting-started')).toHaveLength(1);

    await user.click(dialog.getByRole('button', { name: 'All guides' }));
    const [first] = within(await screen.findByRole('list', { name: 'Video guides' })).getAllByRole('listitem');
    expect(first && within(first).getByText('Watched')).toBeInTheDocument();
  });

  it('plays a recorded guide from youtube-nocookie with a plain link, and records the view once', async () => {
    const { api } = popup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reading your matches' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Reading your matches' }));
    expect(dialog.getByTitle('Video: Reading your matches')).toHaveAttribute(
      'src',
      'https://www.youtube-nocookie.com/embed/Tandem_0001?rel=0',
    );
    expect(dialog.getByRole('link', { name: 'Watch it on YouTube' })).toHaveAttribute(
      'href',
      'https://www.youtube.com/watch?v=Tandem_0001',
    );
    await waitFor(() => {
      expect(api.calls('PUT users/video-view/matches')).toHaveLength(1);
    });
    expect(await dialog.findByText('Watched')).toBeInTheDocument();
  });

  it('plays a guide recorded from the app in the browser\'s own player, captions on, and marks it watched at the end', async () => {
    const { api } = popup();
    const user = userEvent.setup();
    const card = within(await screen.findByRole('button', { name: 'Choosing your notifications' }).then((b) => b.closest('li') as HTMLElement));
    expect(card.getByText('Video · 0:25')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Choosing your notifications' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Choosing your notifications' }));

    const video = dialog.getByLabelText('Video: Choosing your notifications');
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', OURS.src);
    expect(video).toHaveAttribute('poster', OURS.poster);
    expect(video).toHaveAttribute('controls'); // the platform's controls: Tab, Space, arrows
    expect(document.querySelector('iframe')).toBeNull();
    const track = video.querySelector('track');
    expect(track).toHaveAttribute('kind', 'captions');
    expect(track).toHaveAttribute('src', OURS.captions);
    expect(track).toHaveAttribute('srclang', 'en');
    expect(track?.hasAttribute('default')).toBe(true); // captions on from the start
    expect(dialog.queryByText('Video coming soon')).not.toBeInTheDocument();

    // Opening or playing is not watching it: the mark comes at the end.
    fireEvent.play(video);
    expect(api.calls('PUT users/video-view/notifications')).toHaveLength(0);
    expect(dialog.getByRole('button', { name: 'Mark as watched' })).toBeInTheDocument();
    fireEvent.ended(video);
    expect(await dialog.findByText('Watched')).toBeInTheDocument();
    expect(api.calls('PUT users/video-view/notifications')).toHaveLength(1);
    fireEvent.ended(video); // watched again: recorded once
    expect(api.calls('PUT users/video-view/notifications')).toHaveLength(1);
  });

  it('lets a member mark a recorded guide watched without playing it to the end', async () => {
    const { api } = popup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Choosing your notifications' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Choosing your notifications' }));
    await user.click(dialog.getByRole('button', { name: 'Mark as watched' }));
    expect(await dialog.findByText('Watched')).toBeInTheDocument();
    expect(api.calls('PUT users/video-view/notifications')).toHaveLength(1);
  });

  it('keeps keyboard focus in the popup: on the player when a guide opens from the list, back on its card after All guides', async () => {
    popup();
    const user = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'Choosing your notifications' });
    open.focus();
    await user.keyboard('{Enter}');
    const dialog = within(screen.getByRole('dialog', { name: 'Choosing your notifications' }));
    // Space plays: the browser's own player has focus, not <body>
    expect(dialog.getByLabelText('Video: Choosing your notifications')).toHaveFocus();

    await user.click(dialog.getByRole('button', { name: 'All guides' }));
    expect(await screen.findByRole('button', { name: 'Choosing your notifications' })).toHaveFocus();

    // an embedded guide has no player of ours to focus: its first control inside the popup does
    await user.click(screen.getByRole('button', { name: 'Reading your matches' }));
    expect(within(screen.getByRole('dialog', { name: 'Reading your matches' })).getByRole('link', { name: 'Watch it on YouTube' })).toHaveFocus();
  });

  it('says when the list cannot load, with Try again', async () => {
    popup({ 'GET videos': jsonResponse({ error: 'Down for a moment' }, 500) });
    expect(await screen.findByText("We couldn't load the video guides")).toBeInTheDocument();
    expect(screen.getByText('Down for a moment')).toBeInTheDocument();
  });

  it('opens from the main menu', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET videos': { videos: [WRITTEN] }, 'GET collab': { ideas: [], benefits: {}, efforts: {}, total: 26 } });
    const { user } = renderRoute('/inspiration');
    await user.click(await screen.findByRole('button', { name: 'Video Guides' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Video Guides' }));
    expect(await dialog.findByRole('button', { name: 'Getting started with Tandem' })).toBeInTheDocument();
  });
});
