import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildMainMenu } from '../menu';
import { MainMenu } from './MainMenu';

const counts = { dashboard: 2, matches: 14, requests: 9, connections: 3, declines: 0 };
const MEMBER_AREAS = {
  matches: true,
  connections: true,
  declines: true,
  'collab-ideas': true,
  'video-guides': true,
  requests: true,
  billing: true,
};

function renderMenu(path = '/matches/saved', mini = false) {
  const onToggleMini = vi.fn();
  const onAction = vi.fn();
  render(
    <MemoryRouter initialEntries={[path]}>
      <MainMenu
        entries={buildMainMenu({ counts, featureOnly: false, areas: MEMBER_AREAS })}
        mini={mini}
        onToggleMini={onToggleMini}
        onAction={onAction}
      />
    </MemoryRouter>,
  );
  return { onToggleMini, onAction, user: userEvent.setup() };
}

describe('MainMenu', () => {
  it("shows counts, capping them at '9+', in the items' accessible names", () => {
    renderMenu();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Matches (9+ new)' })).toHaveAttribute('href', '/matches');
    expect(screen.getByRole('link', { name: 'Requests (9 new)' })).toHaveAttribute('href', '/requests/received');
    expect(screen.getByRole('link', { name: 'Dashboard (2 new)' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Connections' })).toHaveAttribute('href', '/connections/connected');
  });

  it('marks the current section', () => {
    renderMenu('/matches/saved');
    expect(screen.getByRole('link', { name: 'Matches (9+ new)' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard (2 new)' })).not.toHaveAttribute('aria-current');
  });

  it('opens Video Guides as a popup and toggles the Mini Menu', async () => {
    const { onAction, onToggleMini, user } = renderMenu('/', true);
    await user.click(screen.getByRole('button', { name: 'Video Guides' }));
    expect(onAction).toHaveBeenCalledWith('videoGuides');
    const toggle = screen.getByRole('button', { name: 'Mini Menu' });
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(onToggleMini).toHaveBeenCalledTimes(1);
  });
});
