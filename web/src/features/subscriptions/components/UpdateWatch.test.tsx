import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardBody, mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { UPDATE_MAX_TRIES, UPDATE_POLL_MS } from '../billing-rules';
import { creditsOf, productsBody } from '../test-fixtures';

afterEach(() => {
  vi.useRealTimers();
});

const monthly = creditsOf('monthly');
const yearly = creditsOf('yearly');
const OLD = { 'invoice.paid': '2026-11-01T00:00:00Z' };

const tick = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

/**
 * Upgrades to yearly with GET users answering: first the login check at start-up (OLD), then the
 * upgrade's read of the stamps just before it (`before`, the watch's baseline), then the watch's
 * polls (`usersAnswers(1)`, `usersAnswers(2)`...).
 */
async function upgrade(usersAnswers: (call: number) => unknown, before: unknown = OLD, monthlyReads = 2) {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(new Date('2026-11-23T05:00:00Z'));
  signIn();
  let users = 0;
  let dashboards = 0;
  const dashboard = () => {
    dashboards += 1;
    return dashboardBody({ credits: dashboards <= monthlyReads ? monthly : yearly });
  };
  const api = mockApi({
    ...shellRoutes({ credits: monthly }, { lastWebhookUpdate: OLD }),
    'GET dashboard': dashboard,
    'GET dashboard/1': dashboard,
    'GET products': productsBody(),
    'GET users/yearly-upgrade': { upgraded: true },
    'GET users': () => {
      users += 1;
      const stamps = users === 1 ? OLD : users === 2 ? before : usersAnswers(users - 2);
      return { id: 'u1', email: 'ana@oat.co', lastWebhookUpdate: stamps };
    },
  });
  const { user } = renderRoute('/account/subscriptions/');
  await user.click(await screen.findByRole('button', { name: 'Upgrade to yearly' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Upgrade to yearly' })).getByRole('button', { name: 'Upgrade to yearly' }));
  await screen.findByRole('dialog', { name: 'Yearly upgrade' });
  const watchCalls = () => api.calls('GET users').length - 2;
  const dashboardReads = () => dashboards;
  return { api, watchCalls, dashboardReads };
}

describe('update watch (SPEC section 4)', () => {
  it('polls the user record every 2 s until a webhook timestamp changes, then reloads the plan', async () => {
    const { watchCalls } = await upgrade((call) => (call < 3 ? OLD : { ...OLD, 'customer.subscription.updated': '2026-11-23T04:59:00Z' }));
    await tick(10);
    expect(watchCalls()).toBe(1);
    await tick(UPDATE_POLL_MS);
    expect(watchCalls()).toBe(2);
    await tick(UPDATE_POLL_MS);
    expect(watchCalls()).toBe(3);
    expect(await screen.findByText('You have a yearly subscription.')).toBeInTheDocument();
    await tick(UPDATE_POLL_MS * 3);
    expect(watchCalls()).toBe(3);
  });

  it('keeps polling past a stamp it already had, however fresh, until the upgrade\'s own webhook', async () => {
    // A purchase's webhook processed a second before the upgrade: within 3 s of now, but in the
    // baseline. Ending on it would reload the plan before the upgrade's webhook (seen in CI).
    const just = { ...OLD, 'checkout.session.completed': '2026-11-23T04:59:59Z' };
    const { api, watchCalls } = await upgrade(
      (call) => (call < 4 ? just : { ...just, 'customer.subscription.updated': '2026-11-23T05:00:07Z' }),
      just,
    );
    await tick(UPDATE_POLL_MS * 2 + 10);
    expect(watchCalls()).toBe(3);
    expect(screen.getByText('You have a monthly subscription.')).toBeInTheDocument();
    await tick(UPDATE_POLL_MS);
    expect(watchCalls()).toBe(4);
    expect(await screen.findByText('You have a yearly subscription.')).toBeInTheDocument();
    await tick(UPDATE_POLL_MS * 3);
    expect(watchCalls()).toBe(4);
    expect(api.calls('GET users/yearly-upgrade')).toHaveLength(1);
  });

  it('goes on past a late webhook that leaves the plan as it was, to the change the member made', async () => {
    // A purchase's last webhook is processed after the baseline was read (a busy dispatcher):
    // its stamp is new, but the plan it reloads is the one the member had. Ending there left the
    // page on the old plan when the member's own change came a moment later (the portal-cancel
    // journey in a clean clone on 2026-12-06).
    const late = { ...OLD, 'customer.subscription.created': '2026-11-23T05:00:01Z' };
    const { watchCalls, dashboardReads } = await upgrade(
      (call) => (call < 2 ? OLD : call < 4 ? late : { ...late, 'customer.subscription.updated': '2026-11-23T05:00:07Z' }),
      OLD,
      3,
    );
    await tick(UPDATE_POLL_MS + 10);
    expect(watchCalls()).toBe(2);
    await vi.waitFor(() => {
      expect(dashboardReads()).toBe(3); // the late webhook's reload: the monthly plan still
    });
    expect(screen.getByText('You have a monthly subscription.')).toBeInTheDocument();
    await tick(UPDATE_POLL_MS);
    expect(watchCalls()).toBe(3);
    expect(dashboardReads()).toBe(3); // the same stamps again: nothing new to reload for
    await tick(UPDATE_POLL_MS);
    expect(watchCalls()).toBe(4);
    expect(await screen.findByText('You have a yearly subscription.')).toBeInTheDocument();
    await tick(UPDATE_POLL_MS * 3);
    expect(watchCalls()).toBe(4);
    expect(dashboardReads()).toBe(4);
  });

  it('gives up after 15 tries when nothing changes', async () => {
    const { watchCalls } = await upgrade(() => OLD);
    await tick(UPDATE_POLL_MS * (UPDATE_MAX_TRIES + 5));
    expect(watchCalls()).toBe(UPDATE_MAX_TRIES);
  });
});
