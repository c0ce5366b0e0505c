import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FEATURE_ONLY_AREAS, FEATURE_ONLY_LIVE_AREAS, MEMBER_AREAS, mockApi, shellRoutes } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { accessRedirect, areaRedirect } from './access';

const here = { pathname: '/matches', search: '?x=1', hash: '' };

describe('accessRedirect', () => {
  it('sends signed-out users from private routes to login with a redirect', () => {
    expect(accessRedirect('private', false, here)).toBe('/login/?redirect=/matches%3Fx%3D1');
    expect(accessRedirect('private', true, here)).toBeNull();
  });

  it('sends signed-in users away from logged-out-only routes', () => {
    expect(accessRedirect('loggedOutOnly', true, here)).toBe('/');
    expect(accessRedirect('loggedOutOnly', false, here)).toBeNull();
  });

  it('lets everyone through public and instant-login routes', () => {
    for (const loggedIn of [true, false]) {
      expect(accessRedirect('public', loggedIn, here)).toBeNull();
      expect(accessRedirect('instantLogin', loggedIn, here)).toBeNull();
    }
  });
});

describe('areaRedirect', () => {
  it("sends a member from a route of an area the server says their account does not include", () => {
    const matches = { area: 'matches', otherwise: '/' } as const;
    const sent = { area: 'send-requests', otherwise: '/requests/received' } as const;
    expect(areaRedirect(matches, FEATURE_ONLY_AREAS)).toBe('/');
    expect(areaRedirect(sent, FEATURE_ONLY_LIVE_AREAS)).toBe('/requests/received');
    expect(areaRedirect(matches, MEMBER_AREAS)).toBeNull();
    expect(areaRedirect(undefined, FEATURE_ONLY_AREAS)).toBeNull(); // a route of no area
    expect(areaRedirect(matches, null)).toBeNull(); // not known yet: the shell decides whether to wait
  });
});

describe('router', () => {
  it('redirects unknown paths to /404', async () => {
    const { router } = renderRoute('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/404');
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Page not found');
    });
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('sends a signed-out visitor of / to /login/?redirect=/', async () => {
    const { router } = renderRoute('/');
    expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
    const { pathname, search } = router.state.location;
    expect(pathname + search).toBe('/login/?redirect=/');
  });

  it('serves /login with and without the trailing slash', async () => {
    for (const path of ['/login', '/login/']) {
      const view = renderRoute(path);
      expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
      view.unmount();
    }
  });

  it('shows the dashboard to a signed-in user', async () => {
    signIn();
    mockApi(shellRoutes());
    renderRoute('/');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ana' })).toBeInTheDocument();
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Dashboard');
    });
  });

  it('sends a signed-in user away from /login', async () => {
    signIn();
    const { router } = renderRoute('/login/');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });
});

describe('access rules by route kind', () => {
  it.each(['/create-account', '/forgot-password', '/setup-password', '/setup-password-direct', '/reset-password/c1', '/create-password/c1'])(
    'sends a signed-in user from logged-out-only %s to /',
    async (path) => {
      signIn();
      mockApi(shellRoutes());
      const { router } = renderRoute(path);
      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/');
      });
    },
  );

  it.each([
    '/matches',
    '/matches/saved',
    '/matches/brand/7',
    '/matches/payment-processing/cs_1',
    '/connections',
    '/connections/1/7',
    '/declines/in',
    '/inspiration',
    '/inspiration/calendar',
  ])('sends a feature-only user from %s to the dashboard', async (path) => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    mockApi(shellRoutes({ credits: { areas: FEATURE_ONLY_AREAS } }, { featureOnly: true }));
    const { router } = renderRoute(path);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ana' })).toBeInTheDocument();
  });

  it("follows the server's areas, not the kind of session: an area it leaves out is left out", async () => {
    signIn(); // a member's session; the server's answer alone says Matches is not included
    mockApi(shellRoutes({ credits: { areas: { ...MEMBER_AREAS, matches: false } } }));
    const { router } = renderRoute('/matches/saved');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });

  it('sends a feature-only user from sent requests to the pitches they received', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    mockApi({
      ...shellRoutes({ credits: { areas: FEATURE_ONLY_LIVE_AREAS } }, { featureOnly: true }),
      'GET requests?box=received': { items: [], nextCursor: null },
    });
    const { router } = renderRoute('/requests/sent');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/requests/received');
    });
  });

  it('lets a member open the areas a feature-only account does not include', async () => {
    signIn();
    mockApi(shellRoutes());
    const { router } = renderRoute('/inspiration/calendar');
    // The calendar is a tab of Collab Ideas: the page's heading, with its own options form.
    expect(await screen.findByRole('heading', { level: 1, name: 'Collab Ideas' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Calendar options' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/inspiration/calendar');
  });

  it('sends a signed-out visitor of a private page to login, keeping path and query', async () => {
    const { router } = renderRoute('/matches/saved?sort=new');
    await screen.findByRole('heading', { name: 'Sign in to Tandem' });
    const { pathname, search } = router.state.location;
    expect(pathname + search).toBe('/login/?redirect=/matches/saved%3Fsort%3Dnew');
  });

  it('lets a signed-in user open an instant-login link', async () => {
    signIn();
    mockApi({
      'POST users/instant-login': jsonResponse({ error: 'This link has expired' }, 400),
    });
    const { router } = renderRoute('/login/code1/u1');
    expect(await screen.findByRole('heading', { name: "This sign-in link didn't work" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login/code1/u1');
  });

  it.each([true, false])('serves public /confirm-email/* (signed in: %s)', async (signedIn) => {
    if (signedIn) signIn();
    mockApi({ 'POST users/confirm-email': { message: 'Email confirmed' } });
    const { router } = renderRoute('/confirm-email/code-1');
    expect(await screen.findByRole('heading', { name: 'Email confirmed' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/confirm-email/code-1');
  });
});
