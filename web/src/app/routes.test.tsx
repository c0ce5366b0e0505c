import { screen, waitFor, within } from '@testing-library/react';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { buildRoutes } from './router';
import { isRouteHandle, type RouteAccess } from './route-types';
import { isRedirectRoute, routes } from './routes';

/** Every path of SPEC section 2 (with sample parameters) and who may see it. */
const SPEC_PATHS: readonly (readonly [string, RouteAccess])[] = [
  ['/login', 'loggedOutOnly'],
  ['/login/', 'loggedOutOnly'],
  ['/create-account', 'loggedOutOnly'],
  ['/forgot-password', 'loggedOutOnly'],
  ['/setup-password', 'loggedOutOnly'],
  ['/setup-password-direct', 'loggedOutOnly'],
  ['/reset-password/abc123', 'loggedOutOnly'],
  ['/create-password/abc123', 'loggedOutOnly'],
  ['/login/abc123/u1', 'instantLogin'],
  ['/login/abc123/u1/new', 'instantLogin'],
  ['/confirm-email/abc123', 'public'],
  ['/confirm-email/abc/def/ghi', 'public'],
  ['/maintenance', 'public'],
  ['/quick-action/accept/12/34/xyz', 'public'],
  ['/404', 'public'],
  ['/', 'private'],
  ['/stop-welcome-emails/ana@oat.co', 'private'],
  ['/account', 'private'],
  ['/account/brands', 'private'],
  ['/account/profile/', 'private'],
  ['/account/subscriptions/', 'private'],
  ['/account/notifications/', 'private'],
  ['/account/blocked', 'private'],
  ['/account/subscriptions/payment-processing/cs_test_1', 'private'],
  ['/requests', 'private'],
  ['/requests/received', 'private'],
  ['/requests/sent', 'private'],
  ['/requests/12', 'private'],
  ['/requests/sent/12', 'private'],
  ['/requests/received/12/r9', 'private'],
  ['/requests/received/12/r9/payment-processing', 'private'],
  ['/requests/received/12/r9/payment-processing/cs_test_1', 'private'],
  ['/connections', 'private'],
  ['/connections/connected', 'private'],
  ['/connections/12', 'private'],
  ['/connections/12/c9', 'private'],
  ['/declines', 'private'],
  ['/declines/out', 'private'],
  ['/declines/in', 'private'],
  ['/declines/out/12', 'private'],
  ['/declines/in/12', 'private'],
  ['/declines/12', 'private'],
  ['/inspiration', 'private'],
  ['/inspiration/ideas', 'private'],
  ['/inspiration/calendar', 'private'],
  ['/inspiration/member-collabs', 'private'],
  ['/matches', 'private'],
  ['/matches/potentials', 'private'],
  ['/matches/saved', 'private'],
  ['/matches/search', 'private'],
  ['/matches/search/12', 'private'],
  ['/matches/12', 'private'],
  ['/matches/potentials/12', 'private'],
  ['/matches/saved/12', 'private'],
  ['/matches/brand/b7', 'private'],
  ['/matches/12/brand/b7', 'private'],
  ['/matches/brands/1,2,3', 'private'],
  ['/matches/payment-processing/cs_test_1', 'private'],
  ['/matches/brand/b7/payment-processing/cs_test_1', 'private'],
  ['/brand/b7', 'private'],
  ['/brand/12/b7', 'private'],
  ['/pitch', 'private'],
  ['/pitch/new', 'private'],
  ['/pitch/p1', 'private'],
  ['/pitch/jump/p1', 'private'],
  ['/pitch/p1/payment-processing', 'private'],
  ['/pitch/p1/payment-processing/cs_test_1', 'private'],
  ['/pitch/payment-processing', 'private'],
  ['/pitch/payment-processing/cs_test_1', 'private'],
];

const table = buildRoutes();

function handleFor(path: string) {
  const matches = matchRoutes(table, path) ?? [];
  const last = matches[matches.length - 1];
  return { handle: isRouteHandle(last?.route.handle) ? last.route.handle : null, route: last?.route };
}

describe('route table', () => {
  it.each(SPEC_PATHS)('%s is registered as %s', (path, access) => {
    const { handle, route } = handleFor(path);
    expect(route?.path).not.toBe('*');
    expect(handle?.access).toBe(access);
  });

  it('sends unknown paths to the catch-all redirect', () => {
    expect(handleFor('/no/such/page').route?.path).toBe('*');
    expect(routes.filter(isRedirectRoute)).toEqual([{ path: '*', redirectTo: '/404' }]);
  });

  it('gives every page a title', () => {
    for (const route of routes) {
      if (isRedirectRoute(route)) continue;
      expect(route.title.trim(), route.path).not.toBe('');
    }
  });

  it('marks payment-processing routes for the subscriptions screen', () => {
    expect(handleFor('/matches/brand/b7/payment-processing/cs_1').handle).toMatchObject({
      paymentProcessing: true,
      subscriptionType: 'match',
      area: 'Matches',
    });
    expect(handleFor('/pitch/payment-processing').handle).toMatchObject({
      paymentProcessing: true,
      subscriptionType: 'pitch',
    });
    expect(handleFor('/account/subscriptions/payment-processing/cs_1').handle).toMatchObject({
      paymentProcessing: true,
      subscriptionType: 'account',
    });
  });
});

describe('account pages', () => {
  it.each(['/account/settings', '/account/anything/else'])('%s is no page of ours: it goes to /404', async (path) => {
    signIn();
    mockApi(shellRoutes());
    const { router } = renderRoute(path);
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/404');
    });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  });

  it.each([
    ['/requests', 'Requests received'],
    ['/requests/received', 'Requests received'],
    ['/requests/sent', 'Requests sent'],
    ['/requests/1', 'Requests received'],
    ['/requests/received/1', 'Requests received'],
    ['/requests/sent/1', 'Requests sent'],
  ])('%s is titled "Tandem Hub: %s"', async (path, title) => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET requests?box=received': { items: [], nextCursor: null }, 'GET requests?box=sent': { items: [], nextCursor: null } });
    renderRoute(path);
    await screen.findByRole('heading', { level: 1, name: 'Requests' });
    await waitFor(() => {
      expect(document.title).toBe(`Tandem Hub: ${title}`);
    });
  });

  it('shows the quick-action page with header and footer to signed-out visitors', async () => {
    mockApi({ 'POST quick-action/accept/12/34/xyz': { error: 'This link has expired.' } });
    renderRoute('/quick-action/accept/12/34/xyz');
    expect(await screen.findByRole('heading', { level: 1, name: /accepting the request|this link can't be used/i })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tandem home' })).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Terms' })).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'Privacy' })).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'FAQs' })).toBeInTheDocument();
  });

  it('hides the footer links on other public routes', async () => {
    renderRoute('/maintenance');
    expect(await screen.findByRole('heading', { name: "We'll be back shortly" })).toBeInTheDocument();
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Maintenance');
    });
  });
});
