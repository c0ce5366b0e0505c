import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardBody, mockApi, shellRoutes } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { nextStep } from './next-step';

const ZERO = { dashboard: 0, matches: 0, requests: 0, connections: 0, declines: 0 };

describe('DashboardPage', () => {
  it('greets the member, names the brand and shows the counts', async () => {
    signIn();
    mockApi(shellRoutes({ menuCounts: { dashboard: 1, matches: 12, requests: 0, connections: 3, declines: 2 } }));
    renderRoute('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ana' })).toBeInTheDocument();
    expect(await screen.findByText('Oat & Co', { selector: 'strong' })).toBeInTheDocument();
    const activity = within(screen.getByRole('region', { name: 'Your activity' }));
    expect(activity.getByRole('link', { name: '12 New matches' })).toHaveAttribute('href', '/matches');
    expect(activity.getByRole('link', { name: '3 New connections' })).toHaveAttribute('href', '/connections/connected');
    expect(activity.getByRole('link', { name: '0 New requests' })).toHaveAttribute('href', '/requests');
    expect(activity.getByRole('link', { name: '2 Declines' })).toHaveAttribute('href', '/declines');
  });

  it('suggests finding first partners to a new member', async () => {
    signIn();
    mockApi(shellRoutes());
    renderRoute('/');
    const step = within(await screen.findByRole('region', { name: 'Find your first partners' }));
    expect(step.getByRole('link', { name: 'See your matches' })).toHaveAttribute('href', '/matches');
  });

  it('offers an admin without a brand the admin console, not Matches', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
    mockApi(shellRoutes({ userBrands: [], dashboard: {} }));
    renderRoute('/');
    const step = within(await screen.findByRole('region', { name: 'Look after Tandem' }));
    expect(step.getByRole('link', { name: 'Open the admin console' })).toHaveAttribute('href', '/admin');
    expect(screen.queryByRole('link', { name: 'See your matches' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your activity' })).not.toBeInTheDocument();
  });

  it('offers a member without a brand to add one', async () => {
    signIn();
    mockApi(shellRoutes({ userBrands: [], dashboard: {} }));
    renderRoute('/');
    const step = within(await screen.findByRole('region', { name: 'Add your brand' }));
    expect(step.getByRole('link', { name: 'Add your brand' })).toHaveAttribute('href', '/account/brands');
  });

  it('offers a retry when the dashboard fails to load', async () => {
    signIn();
    let calls = 0;
    mockApi({
      'GET users': {},
      'GET dashboard': () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: 'Service unavailable' }, 503) : dashboardBody();
      },
    });
    const { user } = renderRoute('/');
    expect(await screen.findByText('Service unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Oat & Co', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.queryByText('Service unavailable')).not.toBeInTheDocument();
  });

  it('points feature-only users at the Pitch Area, without the members\' news about Matches', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    const news = { whatsNew: [{ title: 'Matches that tell you why', content: 'Every match now says why.' }] };
    mockApi(shellRoutes(news));
    renderRoute('/');
    const link = await screen.findByRole('link', { name: 'Feature your brand' });
    expect(link).toHaveAttribute('href', '/pitch/new');
    // Their activity is the pitches they received (the mocked account has had a live feature),
    // never a member's matches, requests and connections: asserted once the dashboard has loaded
    // (before it, no activity shows at all, which said nothing).
    const activity = within(await screen.findByRole('region', { name: 'Your activity' }));
    expect(activity.getByText('Pitches received')).toBeInTheDocument();
    expect(activity.queryByText('New matches')).not.toBeInTheDocument();
    expect(activity.queryByText('New requests')).not.toBeInTheDocument();
    expect(activity.queryByText('New connections')).not.toBeInTheDocument();
    expect(screen.queryByText('Matches that tell you why')).not.toBeInTheDocument();
  });

  it("shows members what's new", async () => {
    signIn();
    mockApi(shellRoutes({ whatsNew: [{ title: 'Matches that tell you why', content: 'Every match now says why.' }] }));
    renderRoute('/');
    expect(await screen.findByText('Matches that tell you why')).toBeInTheDocument();
  });
});

describe('nextStep', () => {
  it('puts new requests first, then more partners once connected', () => {
    expect(nextStep({ counts: { ...ZERO, requests: 2 }, featureOnly: false, hasHadLive: false, requestsArea: true })?.to).toBe(
      '/requests/received',
    );
    expect(nextStep({ counts: { ...ZERO, connections: 1 }, featureOnly: false, hasHadLive: false, requestsArea: true })?.title).toBe(
      'Find more partners',
    );
  });

  it('sends feature-only users to their pitches once live', () => {
    expect(nextStep({ counts: { ...ZERO, requests: 1 }, featureOnly: true, hasHadLive: true, requestsArea: true })?.to).toBe(
      '/requests/received',
    );
    expect(nextStep({ counts: ZERO, featureOnly: true, hasHadLive: true, requestsArea: true })?.to).toBe('/pitch');
  });
});
