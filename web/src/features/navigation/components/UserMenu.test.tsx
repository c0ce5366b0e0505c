import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USER_MENU_CLOSE_DELAY_MS, UserMenu } from './UserMenu';

const links = [
  { label: 'Profile', to: '/account/profile/' },
  { label: 'Notifications', to: '/account/notifications/' },
  { label: 'Billing', to: '/account/subscriptions/' },
];

function renderMenu(handlers: { onHelp?: () => void; onLogout?: () => void } = {}) {
  render(
    <MemoryRouter>
      <UserMenu
        initials="AB"
        name="Ana Brand"
        email="ana@oat.co"
        links={links}
        onHelp={handlers.onHelp ?? vi.fn()}
        onLogout={handlers.onLogout ?? vi.fn()}
      />
    </MemoryRouter>,
  );
  const button = screen.getByRole('button', { name: 'Account menu for Ana Brand' });
  const root = button.closest<HTMLElement>('.user-menu');
  if (!root) throw new Error('user menu root not found');
  return { button, root };
}

describe('UserMenu', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens with Profile, Notifications, Billing, Help and Log out', () => {
    const { button } = renderMenu();
    expect(button).toHaveTextContent('AB');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'Account menu for Ana Brand' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Profile',
      'Notifications',
      'Billing',
      'Help',
      'Log out',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/account/profile/');
    expect(screen.getByRole('menuitem', { name: 'Notifications' })).toHaveAttribute('href', '/account/notifications/');
    expect(screen.getByRole('menuitem', { name: 'Billing' })).toHaveAttribute('href', '/account/subscriptions/');
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveFocus();
  });

  it(`closes ${USER_MENU_CLOSE_DELAY_MS} ms after the mouse leaves`, () => {
    expect(USER_MENU_CLOSE_DELAY_MS).toBe(2500);
    const { button, root } = renderMenu();
    fireEvent.click(button);
    fireEvent.mouseLeave(root);
    act(() => {
      vi.advanceTimersByTime(2499);
    });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menuitem', { name: 'Profile' })).not.toBeInTheDocument();
  });

  it('stays open when the mouse comes back in time', () => {
    const { button, root } = renderMenu();
    fireEvent.click(button);
    fireEvent.mouseLeave(root);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    fireEvent.mouseEnter(root);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('moves with the arrow keys, Home and End', () => {
    const { button } = renderMenu();
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    const item = (name: string) => screen.getByRole('menuitem', { name });
    expect(item('Log out')).toHaveFocus();
    fireEvent.keyDown(item('Log out'), { key: 'ArrowDown' });
    expect(item('Profile')).toHaveFocus();
    fireEvent.keyDown(item('Profile'), { key: 'ArrowUp' });
    expect(item('Log out')).toHaveFocus();
    fireEvent.keyDown(item('Log out'), { key: 'Home' });
    expect(item('Profile')).toHaveFocus();
    fireEvent.keyDown(item('Profile'), { key: 'End' });
    expect(item('Log out')).toHaveFocus();
  });

  it('closes on Esc and returns focus to the avatar', () => {
    const { button } = renderMenu();
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByRole('menuitem', { name: 'Profile' }), { key: 'Escape' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('runs Help and Log out, closing the menu', () => {
    const onHelp = vi.fn();
    const onLogout = vi.fn();
    const { button } = renderMenu({ onHelp, onLogout });
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Help' }));
    expect(onHelp).toHaveBeenCalledTimes(1);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});
