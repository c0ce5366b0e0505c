import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { requestItem } from '@/features/requests/test-fixtures';
import { getSelectedBrand, getSession } from '@/lib/session';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

/** What POST users/instant-login answers for an emailed sign-in code. */
const CLEO_SIGNED_IN = {
  access_token: 'access-i',
  refresh_token: 'refresh-i',
  uid: 'u5',
  account: 'a5',
  initials: 'CD',
  name: 'Cleo Dane',
  firstName: 'Cleo',
  sessionInfo: { access: 'member' },
};

describe('ConfirmEmailPage', () => {
  it('confirms with the code from the rest of the path and links to sign in', async () => {
    const api = mockApi({ 'POST users/confirm-email': { message: 'Thanks, your email is confirmed.' } });
    renderRoute('/confirm-email/abc/def');
    expect(await screen.findByRole('heading', { name: 'Email confirmed' })).toBeInTheDocument();
    expect(screen.getByText('Thanks, your email is confirmed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(api.calls('POST users/confirm-email')).toHaveLength(1);
    expect(api.calls('POST users/confirm-email')[0]?.body).toEqual({ code: 'abc/def' });
  });

  it('shows an expired or used link and links a signed-in user home', async () => {
    signIn();
    mockApi({ 'POST users/confirm-email': jsonResponse({ error: 'This link has expired' }, 400) });
    renderRoute('/confirm-email/abc');
    expect(await screen.findByRole('heading', { name: "We couldn't confirm your email" })).toBeInTheDocument();
    expect(screen.getByText('This link has expired')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/');
  });

  it('explains a link without a code', async () => {
    const api = mockApi();
    renderRoute('/confirm-email/');
    expect(await screen.findByRole('heading', { name: "We couldn't confirm your email" })).toBeInTheDocument();
    expect(screen.getByText(/This confirmation link is incomplete/)).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });
});

describe('InstantLoginPage', () => {
  it('signs in with the emailed code and goes to the dashboard', async () => {
    const api = mockApi({
      'POST users/instant-login': CLEO_SIGNED_IN,
      ...shellRoutes(),
    });
    const { router } = renderRoute('/login/code-7/u5/new');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Cleo' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(getSession()).toMatchObject({ accessToken: 'access-i', uid: 'u5' });
    expect(api.calls('POST users/instant-login')).toHaveLength(1);
    expect(api.calls('POST users/instant-login')[0]?.body).toEqual({ code: 'code-7', id: 'u5', status: 'new' });
  });

  it("lands on the page the email is about (the answer's redirect)", async () => {
    mockApi({
      'POST users/instant-login': { ...CLEO_SIGNED_IN, redirect: '/account/notifications/' },
      ...shellRoutes(),
      'GET notifications/options': { platforms: [], sources: [] },
      'GET notifications/user': {},
      'GET slack/status': { connected: false, channelName: null },
      'GET notifications/sign-in-links': { enabled: true },
    });
    const { router } = renderRoute('/login/code-7/u5/request-received');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/account/notifications/');
    });
  });

  it("selects the brand the email is about before the first call: no round of the default brand's calls first (issue 39)", async () => {
    const api = mockApi({
      'POST users/instant-login': { ...CLEO_SIGNED_IN, redirect: '/requests/received/1/r1' },
      ...shellRoutes(),
      'GET requests/r1': { request: requestItem() },
    });
    const { router } = renderRoute('/login/code-7/u5/request-received');
    expect(await screen.findByText('Fancy a candle and oat cookie giveaway?')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/requests/received/1/r1');
    expect(getSelectedBrand()).toBe('1');
    // Every call acted for brand 1 from the start: nothing was asked for the default brand.
    expect(api.calls('GET dashboard')).toHaveLength(0);
    expect(api.calls('GET users')).toHaveLength(0);
    expect(api.calls('GET dashboard/1')).toHaveLength(1);
    expect(api.calls('GET requests/r1')).toHaveLength(1);
    expect(api.calls('GET requests/r1')[0]?.headers.get('X-Brand-Id')).toBe('1');
  });

  it('offers the normal sign-in with the address filled in when the link was used or expired', async () => {
    mockApi({
      'POST users/instant-login': jsonResponse(
        { error: 'This sign-in link has expired or was already used. Sign in with your password instead.', code: 'sign_in_link_refused', email: 'cleo@dane.co' },
        400,
      ),
    });
    const { user } = renderRoute('/login/code-7/u5/request-received');
    expect(await screen.findByText('This sign-in link has expired or was already used.')).toBeInTheDocument();
    // Said once, on the button (the refusal's own "Sign in with your password instead." and a note repeated it).
    expect(document.body.textContent.match(/with your password/gi)).toHaveLength(1);
    await user.click(screen.getByRole('link', { name: 'Sign in with your password' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('cleo@dane.co');
  });

  it('shows the error with a link to sign in', async () => {
    mockApi({ 'POST users/instant-login': jsonResponse({ error: 'This sign-in link has expired' }, 400) });
    renderRoute('/login/code-7/u5');
    expect(await screen.findByText('This sign-in link has expired')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with your password' })).toHaveAttribute('href', '/login');
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Signing in');
    });
  });
});

describe('single-use links under StrictMode', () => {
  it('calls the server once even when React mounts the page twice', async () => {
    const api = mockApi({ 'POST users/confirm-email': { message: 'Confirmed' } });
    renderRoute('/confirm-email/once', { strict: true });
    expect(await screen.findByRole('heading', { name: 'Email confirmed' })).toBeInTheDocument();
    expect(api.calls('POST users/confirm-email')).toHaveLength(1);
  });

  it('signs in once with an emailed link even when React mounts the page twice', async () => {
    const api = mockApi({
      'POST users/instant-login': CLEO_SIGNED_IN,
      ...shellRoutes(),
    });
    renderRoute('/login/code-7/u5', { strict: true });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Cleo' })).toBeInTheDocument();
    expect(api.calls('POST users/instant-login')).toHaveLength(1);
  });
});
