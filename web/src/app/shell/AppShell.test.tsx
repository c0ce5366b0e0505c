import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resendConfirmationEmail } from '@/features/auth/api/account';
import { getSession, setGlobalMessage } from '@/lib/session';
import { FEATURE_ONLY_AREAS, FEATURE_ONLY_LIVE_AREAS, loginCheckBody, mockApi, shellRoutes } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';

const TWO_BRANDS = {
  userBrands: [
    { id: 1, name: 'Oat & Co' },
    { id: 2, name: 'Bean Bros' },
  ],
};

async function openApp(path = '/', dashboard: Record<string, unknown> = {}, check: Record<string, unknown> = {}, extra = {}) {
  const api = mockApi({ ...shellRoutes(dashboard, check), ...extra });
  const view = renderRoute(path);
  await screen.findByRole('navigation', { name: 'Main' });
  return { ...view, api };
}

const menu = () => within(screen.getByRole('navigation', { name: 'Main' }));
const menuLabels = () =>
  menu()
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.menu__label')?.textContent);

describe('main menu in the shell', () => {
  it('shows dashboard counts with the 9+ cap and count-aware targets', async () => {
    signIn();
    await openApp('/', { menuCounts: { dashboard: 1, matches: 23, requests: 4, connections: 2, declines: 0 } });
    expect(await menu().findByRole('link', { name: 'Matches (9+ new)' })).toHaveAttribute('href', '/matches');
    expect(menu().getByRole('link', { name: 'Requests (4 new)' })).toHaveAttribute('href', '/requests/received');
    expect(menu().getByRole('link', { name: 'Connections' })).toHaveAttribute('href', '/connections/connected');
    expect(menu().getByRole('link', { name: 'Dashboard (1 new)' })).toHaveAttribute('aria-current', 'page');
  });

  it('gives feature-only users (by session access) the reduced menu and no Billing', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    const { user } = await openApp('/', { credits: { areas: FEATURE_ONLY_AREAS } });
    expect(menuLabels()).toEqual(['Dashboard', 'Pitch Area', 'Profile']);
    expect(menu().getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account/profile/');
    await user.click(screen.getByRole('button', { name: 'Account menu for Ana Brand' }));
    expect(screen.queryByRole('menuitem', { name: 'Billing' })).not.toBeInTheDocument();
  });

  it("shows 'Pitches Received' and Billing when the server's areas include them (login check featureOnly)", async () => {
    signIn();
    const { user } = await openApp(
      '/',
      { credits: { featureDone: { hasHadLive: true }, areas: FEATURE_ONLY_LIVE_AREAS } },
      { featureOnly: true },
    );
    await waitFor(() => {
      expect(menuLabels()).toEqual(['Dashboard', 'Pitch Area', 'Pitches Received', 'Profile']);
    });
    await user.click(screen.getByRole('button', { name: 'Account menu for Ana Brand' }));
    expect(screen.getByRole('menuitem', { name: 'Billing' })).toHaveAttribute('href', '/account/subscriptions/');
  });

  it('remembers the Mini Menu choice', async () => {
    signIn();
    const { user } = await openApp();
    await user.click(menu().getByRole('button', { name: 'Mini Menu' }));
    expect(menu().getByRole('button', { name: 'Mini Menu' })).toHaveAttribute('aria-pressed', 'true');
    expect(window.localStorage.getItem('tandem.menuSize')).toBe('"mini"');
  });

  it('opens the menu drawer from the header and closes it with Esc', async () => {
    signIn();
    const { user } = await openApp();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu().getByRole('link', { name: 'Dashboard' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('opens Video Guides in a popup', async () => {
    signIn();
    const { user } = await openApp();
    await user.click(await menu().findByRole('button', { name: 'Video Guides' }));
    expect(await screen.findByRole('dialog', { name: 'Video Guides' })).toHaveClass('modal--1000');
  });
});

describe('brand switcher', () => {
  it('is hidden with a single brand', async () => {
    signIn();
    await openApp();
    expect(screen.queryByLabelText('Brand')).not.toBeInTheDocument();
  });

  it('switches brand: stores it, sends it in X-Brand-Id and reloads the dashboard', async () => {
    signIn();
    const { user, api } = await openApp('/', TWO_BRANDS, {}, {
      'GET dashboard/2': { ...TWO_BRANDS, dashboard: { brandId: 2, brandName: 'Bean Bros' } },
      'GET users/check-brand/2': { id: 'u1', email: 'ana@oat.co', emailConfirmed: true },
    });
    const select = await screen.findByLabelText('Brand');
    expect(select).toHaveValue('1');
    expect(api.calls('GET dashboard')[0]?.headers.get('X-Brand-Id')).toBe('default');

    await user.selectOptions(select, '2');
    await screen.findByText('Bean Bros', { selector: 'strong' });
    const [reload] = api.calls('GET dashboard/2');
    expect(reload?.headers.get('X-Brand-Id')).toBe('2');
    expect(api.calls('GET users/check-brand/2')).toHaveLength(1);
    expect(window.localStorage.getItem('tandem.selectedBrand')).toBe('"2"');
    expect(select).toHaveValue('2');
  });
});

describe('top message bar', () => {
  it('asks to confirm the email and resends the confirmation', async () => {
    signIn();
    const { user, api } = await openApp('/', {}, { emailConfirmed: false }, {
      'GET users/confirm-email/resend': { message: 'We sent a new link to ana@oat.co' },
    });
    const bar = within(await screen.findByRole('region', { name: 'Messages' }));
    expect(bar.getByText('Please confirm your email address.')).toBeInTheDocument();
    await user.click(bar.getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText('We sent a new link to ana@oat.co')).toBeInTheDocument();
    expect(api.calls('GET users/confirm-email/resend')).toHaveLength(1);
  });

  it('shows the confirm-email notice once, although the sign-in answer also sent it, and drops it once confirmed', async () => {
    signIn();
    // The sign-in answer's globalMessage, as stored by startSession().
    setGlobalMessage('Please confirm your email address.');
    const { user, router } = await openApp('/', {}, { emailConfirmed: false }, {
      'POST users/confirm-email': { message: 'Thanks, your email address is confirmed.' },
    });
    const bar = await screen.findByRole('region', { name: 'Messages' });
    await waitFor(() => {
      expect(within(bar).getAllByText('Please confirm your email address.')).toHaveLength(1);
    });
    expect(within(bar).getByRole('button', { name: 'Resend confirmation email' })).toBeInTheDocument();

    // The link from the email, opened while signed in.
    await router.navigate('/confirm-email/abc123');
    expect(await screen.findByText('Thanks, your email address is confirmed.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to your dashboard' }));
    await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByText('Please confirm your email address.')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Messages' })).not.toBeInTheDocument();
  });

  it('shows the global message from any response and lets the user dismiss it', async () => {
    signIn();
    const { user } = await openApp('/', { globalMessage: 'Scheduled maintenance on Sunday at 6am' });
    const message = await screen.findByText('Scheduled maintenance on Sunday at 6am');
    expect(message).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText('Scheduled maintenance on Sunday at 6am')).not.toBeInTheDocument();
  });
});

describe('global message for a member already signed in', () => {
  it('shows the message the login check carries, keeps a dismissed one closed, and shows a new one', async () => {
    signIn();
    const first = await openApp('/', {}, { globalMessage: 'Tandem is down for maintenance on Sunday at 6am' });
    const bar = within(await screen.findByRole('region', { name: 'Messages' }));
    expect(bar.getByText('Tandem is down for maintenance on Sunday at 6am')).toBeInTheDocument();
    await first.user.click(bar.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('region', { name: 'Messages' })).not.toBeInTheDocument();
    first.unmount();

    // A reload: the login check still carries the dismissed message.
    await openApp('/', {}, { globalMessage: 'Tandem is down for maintenance on Sunday at 6am' });
    expect(screen.queryByRole('region', { name: 'Messages' })).not.toBeInTheDocument();
  });

  it('shows a message the admin set after the member signed in, and drops it once removed', async () => {
    signIn();
    const view = await openApp('/', {}, { globalMessage: 'New: member collabs' });
    expect(await screen.findByText('New: member collabs')).toBeInTheDocument();
    view.unmount();
    await openApp('/', {}, { globalMessage: '' });
    await waitFor(() => {
      expect(screen.queryByText('New: member collabs')).not.toBeInTheDocument();
    });
  });
});

describe('user menu, popups and footer', () => {
  it('logs out: revokes the refresh token and returns to sign-in', async () => {
    signIn();
    const { user, api, router } = await openApp('/', {}, {}, { 'POST users/logout': { ok: true } });
    await user.click(screen.getByRole('button', { name: 'Account menu for Ana Brand' }));
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
    expect(api.calls('POST users/logout')[0]?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(getSession()).toBeNull();
    expect(router.state.location.pathname).toBe('/login/');
  });

  it('opens the two-page help popup from the user menu', async () => {
    signIn();
    const { user } = await openApp();
    await user.click(screen.getByRole('button', { name: 'Account menu for Ana Brand' }));
    await user.click(screen.getByRole('menuitem', { name: 'Help' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Help' }));
    expect(dialog.getByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(dialog.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Previous' })).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Next' }));
    expect(dialog.getByRole('heading', { name: 'How to' })).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Previous' }));
    expect(dialog.getByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Next' }));
    await user.click(dialog.getByRole('button', { name: 'Finish' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Like every other dialog, Help gives focus back to what opened it: the account menu button.
    expect(screen.getByRole('button', { name: 'Account menu for Ana Brand' })).toHaveFocus();
  });

  it('returns focus to the account menu button when Help is closed with Esc', async () => {
    signIn();
    const { user } = await openApp();
    await user.click(screen.getByRole('button', { name: 'Account menu for Ana Brand' }));
    await user.keyboard('{ArrowDown}');
    await user.click(screen.getByRole('menuitem', { name: 'Help' }));
    expect(await screen.findByRole('dialog', { name: 'Help' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveFocus();
    expect(screen.getByRole('button', { name: 'Account menu for Ana Brand' })).toHaveFocus();
  });

  it('walks a new user through the three-step welcome and records it', async () => {
    signIn();
    const { user, api } = await openApp('/', {}, { showWelcome: true, showWelcomeOpenerMessage: true, welcomeMessage: 'Hi from the team!' }, {
      'POST users/action/welcome': { ok: true },
    });
    const dialog = within(await screen.findByRole('dialog', { name: 'Welcome' }));
    expect(dialog.getByRole('heading', { name: 'Welcome to Tandem, Ana' })).toBeInTheDocument();
    expect(dialog.getByText('Hi from the team!')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Next' }));
    expect(dialog.getByRole('heading', { name: 'How credits work' })).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Next' }));
    expect(dialog.getByText('Step 3 of 3')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Finish' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Welcome' })).not.toBeInTheDocument();
    });
    expect(api.calls('POST users/action/welcome')).toHaveLength(1);
  });

  it.each([
    ['Esc', '{Escape}'],
    ['the X', null],
  ])('closing the welcome with %s records it: it does not come back on the next page or visit', async (_how, key) => {
    signIn();
    let welcomed = false;
    const routes = {
      'GET users': () => loginCheckBody({ showWelcome: !welcomed }),
      'POST users/action/welcome': () => {
        welcomed = true;
        return { ok: true };
      },
      'GET matches?list=potentials': { matches: [], showingBrandNames: true, runOutstanding: false, runId: null },
      'GET matches?list=saved': { matches: [], showingBrandNames: true, runOutstanding: false, runId: null },
    };
    const { user, router, unmount, api } = await openApp('/', {}, {}, routes);
    const dialog = await screen.findByRole('dialog', { name: 'Welcome' });
    if (key) await user.keyboard(key);
    else await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Welcome' })).not.toBeInTheDocument();
    });
    expect(api.calls('POST users/action/welcome')).toHaveLength(1);

    await router.navigate('/matches');
    await screen.findByRole('heading', { level: 1, name: 'Matches' });
    expect(screen.queryByRole('dialog', { name: 'Welcome' })).not.toBeInTheDocument();

    // A new page load (same session): the login check is asked again.
    unmount();
    renderRoute('/matches');
    await screen.findByRole('heading', { level: 1, name: 'Matches' });
    await waitFor(() => {
      expect(api.calls('GET users')).toHaveLength(2);
    });
    expect(screen.queryByRole('dialog', { name: 'Welcome' })).not.toBeInTheDocument();
  });

  it('announces brand name visibility once and records it', async () => {
    signIn();
    const { user, api } = await openApp('/', {}, { showBrandVisibilityUpdatePupup: true }, {
      'POST users/action/brand-visibility-pupup': { ok: true },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Brand names are now visible in Matches' });
    await user.click(within(dialog).getByRole('button', { name: 'Got it' }));
    await waitFor(() => {
      expect(api.calls('POST users/action/brand-visibility-pupup')).toHaveLength(1);
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows footer links to everyone and the app version to admins only', async () => {
    signIn();
    const view = await openApp();
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByRole('link', { name: 'Terms' })).toBeInTheDocument();
    expect(footer.getByRole('link', { name: 'Tandem on Instagram' })).toBeInTheDocument();
    expect(footer.queryByText(/^Version /)).not.toBeInTheDocument();
    view.unmount();

    signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
    await openApp('/', {}, {}, { 'GET admin/users': { users: [{ id: 'u2', email: 'ben@bean.co', name: 'Ben', access: 'member' }] } });
    expect(within(screen.getByRole('contentinfo')).getByText(/^Version \d+\.\d+\.\d+/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Report an issue' })).toBeInTheDocument();
    expect(screen.getByLabelText('Impersonate user')).toBeInTheDocument();
  });
});

describe('forced sign-out', () => {
  it('takes the user to sign-in with a notice when the session cannot be refreshed', async () => {
    signIn();
    const { router } = await openApp('/matches', {}, {}, {
      'GET users/confirm-email/resend': jsonResponse({ error: 'Expired' }, 401),
      'POST users/refresh-token': jsonResponse({ error: 'Refresh token expired' }, 401),
    });
    await screen.findByRole('heading', { level: 1, name: 'Matches' });
    await expect(resendConfirmationEmail()).rejects.toThrow('Expired');
    expect(await screen.findByText('Your session has ended. Please sign in again.')).toBeInTheDocument();
    const { pathname, search } = router.state.location;
    expect(pathname + search).toBe('/login/?redirect=/matches');
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('tandem.sessionEnded')).toBeNull();
  });
});
