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

async function upgrade(usersAnswers: (call: number) => unknown) {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(new Date('2026-11-23T05:00:00Z'));
  signIn();
  let users = 0;
  let dashboards = 0;
  const dashboard = () => {
    dashboards += 1;
    return dashboardBody({ credits: dashboards <= 2 ? monthly : yearly });
  };
  const api = mockApi({
    ...shellRoutes({ credits: monthly }, { lastWebhookUpdate: OLD }),
    'GET dashboard': dashboard,
    'GET dashboard/1': dashboard,
    'GET products': productsBody(),
    'GET users/yearly-upgrade': { upgraded: true },
    'GET users': () => {
      users += 1;
      // The first GET users is the login check at start-up; the watch's are the next ones.
      return { id: 'u1', email: 'ana@oat.co', lastWebhookUpdate: users === 1 ? OLD : usersAnswers(users - 1) };
    },
  });
  const { user } = renderRoute('/account/subscriptions/');
  await user.click(await screen.findByRole('button', { name: 'Upgrade to yearly' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Upgrade to yearly' })).getByRole('button', { name: 'Upgrade to yearly' }));
  await screen.findByRole('dialog', { name: 'Yearly upgrade' });
  const watchCalls = () => api.calls('GET users').length - 1;
  return { api, watchCalls };
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

  it('gives up after 15 tries when nothing changes', async () => {
    const { watchCalls } = await upgrade(() => OLD);
    await tick(UPDATE_POLL_MS * (UPDATE_MAX_TRIES + 5));
    expect(watchCalls()).toBe(UPDATE_MAX_TRIES);
  });
});
