import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { accessRedirect } from './access';

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
