import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardBody, mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { DASHBOARD_RELOAD_TIMEOUT_MS, PAYMENT_COMPLETE, WEBHOOK_POLL_MS, WEBHOOK_RETRY_MS } from '../billing-rules';
import { productsBody } from '../test-fixtures';

afterEach(() => {
  vi.useRealTimers();
});

const STATUS = 'GET stripe/payment-status/cs_1';
const WEBHOOKS = 'GET users/webhooks-in-progress';

/** The dashboard before the payment (0/0) and after it (6/6): each GET dashboard after the first is "after". */
function paidDashboards() {
  let calls = 0;
  return () => {
    calls += 1;
    return dashboardBody({
      credits: calls === 1 ? { available: 0, total: 0 } : { available: 6, total: 6, active: true, hasSubscription: true, hasNewPayment: true },
    });
  };
}

function open(path: string, routes: Record<string, MockAnswer>, check: Record<string, unknown> = {}) {
  signIn();
  const dashboard = paidDashboards();
  const api = mockApi({
    ...shellRoutes({}, check),
    'GET dashboard': dashboard,
    'GET dashboard/1': dashboard,
    'GET products': productsBody(),
    ...routes,
  });
  const view = renderRoute(path);
  return { ...view, api };
}

const tick = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

describe('payment-processing routes', () => {
  it('waits while webhooks are processed (every 500 ms), reloads the dashboard, shows the message and goes back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const counts = [2, 1, 0];
    const { api, router } = open('/account/subscriptions/payment-processing/cs_1', {
      [STATUS]: { status: 'paid', kind: 'subscription', processed: false },
      [WEBHOOKS]: () => ({ count: counts.shift() ?? 0, recent: [] }),
    });
    const processing = within(await screen.findByRole('dialog', { name: 'Processing your payment' }));
    expect(await processing.findByText(/Your payment went through. Updating your plan/)).toBeInTheDocument();
    expect(api.calls(WEBHOOKS)).toHaveLength(1);
    await tick(WEBHOOK_POLL_MS);
    expect(api.calls(WEBHOOKS)).toHaveLength(2);
    await tick(WEBHOOK_POLL_MS);
    expect(api.calls(WEBHOOKS)).toHaveLength(3);
    const done = within(await screen.findByRole('dialog', { name: 'Payment complete' }));
    expect(done.getByText(PAYMENT_COMPLETE.default)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account/subscriptions/');
    expect(screen.queryByRole('dialog', { name: 'Processing your payment' })).not.toBeInTheDocument();
    // Count 0 ends the polling; the dashboard was asked again and the badge shows the new credits.
    await tick(WEBHOOK_POLL_MS * 4);
    expect(api.calls(WEBHOOKS)).toHaveLength(3);
    expect(await screen.findByRole('button', { name: '6/6 credits' })).toBeInTheDocument();
    expect(api.calls(STATUS)).toHaveLength(1);
  });

  it('gives the dashboard reload 5 s, then shows the message anyway', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let dashboards = 0;
    const slow = () => {
      dashboards += 1;
      // The first load answers; the reload after the payment hangs.
      return dashboards === 1 ? dashboardBody({ credits: { available: 0, total: 0 } }) : new Promise<never>(() => undefined);
    };
    open('/account/subscriptions/payment-processing/cs_1', {
      'GET dashboard': slow,
      'GET dashboard/1': slow,
      [STATUS]: { status: 'paid', kind: 'subscription', processed: true },
    });
    const processing = within(await screen.findByRole('dialog', { name: 'Processing your payment' }));
    expect(await processing.findByText(/Updating your credits/)).toBeInTheDocument();
    await tick(DASHBOARD_RELOAD_TIMEOUT_MS - 500);
    expect(screen.queryByText(PAYMENT_COMPLETE.default)).not.toBeInTheDocument();
    await tick(600);
    expect(await screen.findByText(PAYMENT_COMPLETE.default)).toBeInTheDocument();
  });

  it('tries a failed webhook check again after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const { api } = open('/matches/payment-processing/cs_1', {
      [STATUS]: { status: 'paid', kind: 'subscription', processed: false },
      [WEBHOOKS]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: 'busy' }, 503) : { count: 0, recent: [] };
      },
      'GET matches?list=potentials': { items: [], nextCursor: null, showingBrandNames: true },
      'GET matches?list=saved': { items: [], nextCursor: null, showingBrandNames: true },
    });
    await screen.findByRole('dialog', { name: 'Processing your payment' });
    await tick(100);
    expect(api.calls(WEBHOOKS)).toHaveLength(1);
    await tick(WEBHOOK_RETRY_MS - 200);
    expect(api.calls(WEBHOOKS)).toHaveLength(1);
    await tick(200);
    expect(api.calls(WEBHOOKS)).toHaveLength(2);
    expect(await screen.findByText(PAYMENT_COMPLETE.default)).toBeInTheDocument();
  });

  it('does not wait when the payment is already processed, and uses the pitch text on pitch pages', async () => {
    const { api, router } = open('/pitch/payment-processing/cs_1', {
      [STATUS]: { status: 'paid', kind: 'feature', processed: true },
    });
    expect(await screen.findByText(PAYMENT_COMPLETE.pitch)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pitch');
    expect(api.calls(WEBHOOKS)).toHaveLength(0);
  });

  it('uses the feature-only text for feature-only members, and returns to the request', async () => {
    const { router } = open(
      '/requests/received/1/r9/payment-processing/cs_1',
      { [STATUS]: { status: 'paid', kind: 'feature', processed: true } },
      { featureOnly: true },
    );
    expect(await screen.findByText(PAYMENT_COMPLETE.featureOnly)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/requests/received/1/r9');
  });

  it("says clearly when the payment is not the member's (404), with a way back", async () => {
    const { user, router, api } = open('/matches/brand/b7/payment-processing/cs_1', {
      [STATUS]: jsonResponse({ error: 'Payment not found' }, 404),
      'GET matches/brand/b7': jsonResponse({ error: 'gone' }, 404),
    });
    const processing = within(await screen.findByRole('dialog', { name: 'Processing your payment' }));
    expect(await processing.findByText("We couldn't find this payment")).toBeInTheDocument();
    expect(api.calls(STATUS)).toHaveLength(1);
    await user.click(processing.getByRole('link', { name: 'Go back' }));
    expect(router.state.location.pathname).toBe('/matches/brand/b7');
    expect(screen.queryByText(PAYMENT_COMPLETE.default)).not.toBeInTheDocument();
  });

  it('says a declined payment changed nothing, and shows no payment-complete message', async () => {
    const { api } = open('/account/subscriptions/payment-processing/cs_1', {
      [STATUS]: { status: 'failed', kind: 'subscription', processed: false, message: 'Your card was declined.' },
    });
    expect(await screen.findByText("Your payment didn't go through")).toBeInTheDocument();
    expect(screen.getByText('Your card was declined.')).toBeInTheDocument();
    expect(screen.getByText('Your payment failed and nothing changed on your account. Please try again, or use another card.')).toBeInTheDocument();
    expect(api.calls(WEBHOOKS)).toHaveLength(0);
    expect(screen.queryByText(PAYMENT_COMPLETE.default)).not.toBeInTheDocument();
  });

  it('says an expired checkout charged nothing and goes back to the page it came from', async () => {
    const { user, api, router } = open('/account/subscriptions/payment-processing/cs_1', {
      [STATUS]: { status: 'expired', kind: 'extra_credits', processed: false },
    });
    const processing = within(await screen.findByRole('dialog', { name: 'Processing your payment' }));
    expect(await processing.findByText('Your checkout expired')).toBeInTheDocument();
    expect(processing.getByText('Checkout was open too long and has closed; nothing was charged. You can start again whenever you like.')).toBeInTheDocument();
    expect(api.calls(WEBHOOKS)).toHaveLength(0);
    await user.click(processing.getByRole('link', { name: 'Go back' }));
    expect(router.state.location.pathname).toBe('/account/subscriptions/');
    expect(screen.queryByText(PAYMENT_COMPLETE.default)).not.toBeInTheDocument();
  });
});
