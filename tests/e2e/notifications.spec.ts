import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn, signUp, skipFirstVisit } from './members';

/**
 * The Notifications screen (SPEC sections 2, 5, 8, 9) as a fresh member sees it: toggles that
 * save, Required / N/A / Coming Soon labels, sub-options disabled while their source's toggle
 * is on, the browser toggle's messages, the test notification's per-channel result hiding after
 * 10 s, and Slack connect through the local Slack stand-in with a channel chosen.
 *
 * Headless Chromium cannot subscribe to a push service offline, so the page's Notification and
 * PushManager APIs are stubbed (addInitScript): permission answers are scripted per step, and
 * `pushManager.subscribe` makes a real subscription at the local push-service stand-in, which
 * then receives, checks and decrypts what the app sends. Each test signs up its own member, so
 * no demo user's settings change.
 */

const PASSWORD = 'Tandem-Notify-2026';

interface Services {
  readonly slack: string;
  readonly push: string;
}

async function services(request: APIRequestContext): Promise<Services> {
  const answer = await request.get('/__local/services');
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as Services;
}

/** A fresh member (signed up through the API, first-visit popups done), signed in in `page`. */
async function freshMember(page: Page, request: APIRequestContext, who: string): Promise<void> {
  const email = `${who}.${Date.now()}@example.com`;
  const member = await signUp(request, { name: 'Noor Notify', brand: 'Noor Tea', email, password: PASSWORD });
  await skipFirstVisit(request, member);
  await signIn(page, member);
}

/** The stubbed browser APIs; `window.__push` scripts them (permission, the next answer). */
async function stubPush(page: Page, push: string, request: APIRequestContext): Promise<void> {
  await page.exposeFunction('__fakePushSubscribe', async (applicationServerKey: string) => {
    const made = await request.post(`${push}/_fake/subscriptions`, { data: { applicationServerKey } });
    expect(made.status()).toBe(201);
    return made.json();
  });
  await page.addInitScript(() => {
    type Json = { endpoint: string; keys: Record<string, string> };
    const state: { permission: NotificationPermission; answer: NotificationPermission; subscription: unknown } = {
      permission: 'default',
      answer: 'granted',
      subscription: null,
    };
    Object.assign(window, { __push: state });
    class StubNotification {
      static get permission() {
        return state.permission;
      }
      static requestPermission(): Promise<NotificationPermission> {
        if (state.answer !== 'default') state.permission = state.answer;
        return Promise.resolve(state.answer);
      }
    }
    Object.defineProperty(window, 'Notification', { value: StubNotification, configurable: true, writable: true });
    const proto = window.PushManager.prototype;
    proto.getSubscription = () => Promise.resolve(state.subscription as PushSubscription | null);
    proto.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
      const base64 = btoa(String.fromCharCode(...key)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const create = (window as unknown as { __fakePushSubscribe: (k: string) => Promise<Json> }).__fakePushSubscribe;
      const json = await create(base64);
      state.subscription = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: () => Promise.resolve(true) };
      return state.subscription as PushSubscription;
    };
  });
}

function setPush(page: Page, change: { permission?: NotificationPermission; answer?: NotificationPermission }) {
  return page.evaluate((values) => {
    Object.assign((window as unknown as { __push: object }).__push, values);
  }, change);
}

function row(page: Page, name: string) {
  return page.getByRole('row', { name: new RegExp(`^${name}`) });
}

test('toggles save, fixed platforms are labelled and sub-options wait for their source', async ({ page, request }) => {
  await freshMember(page, request, 'toggles');
  await page.goto('/account/notifications/');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();

  // Billing email is required, Slack is not for billing; Slack is not on in this environment.
  const billing = row(page, 'Billing and account');
  await expect(billing.getByRole('cell').nth(0)).toHaveText('Required');
  await expect(billing.getByRole('cell').nth(2)).toHaveText('N/A');
  await expect(row(page, 'Feature approved or ended').getByRole('cell').nth(0)).toHaveText('Required');
  await expect(row(page, 'Requests received').getByRole('cell').nth(2)).toHaveText('Coming Soon');
  await expect(row(page, 'Tips').getByRole('cell').nth(2)).toHaveText('N/A');

  // A toggle saves: off, and still off after a reload.
  const requestsEmail = page.getByRole('checkbox', { name: 'Requests received: Email' });
  await expect(requestsEmail).toBeChecked();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/notifications/user') && r.request().method() === 'PUT');
  await requestsEmail.click(); // the box shows what the server saved
  expect((await saved).ok()).toBe(true);
  await expect(requestsEmail).not.toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Requests received: Email' })).not.toBeChecked();

  // The source's own toggle covers its sub-options: theirs are disabled while it is on.
  const digest = page.getByRole('checkbox', { name: 'New matches, Daily digest: Email' });
  const eachRun = page.getByRole('checkbox', { name: 'New matches, Each run: Email' });
  await expect(digest).toBeChecked();
  await expect(digest).toBeEnabled();
  await page.getByRole('checkbox', { name: 'New matches: Email' }).click();
  await expect(digest).toBeDisabled();
  await expect(eachRun).toBeDisabled();
  await page.getByRole('checkbox', { name: 'New matches: Email' }).click();
  await expect(eachRun).toBeEnabled();
  await eachRun.click();
  await expect(eachRun).toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'New matches, Each run: Email' })).toBeChecked();
});

test('the browser toggle: blocked, dismissed, then on; the test result per channel hides after 10 s', async ({
  page,
  request,
}) => {
  const { push } = await services(request);
  await stubPush(page, push, request);
  await page.clock.install();
  await freshMember(page, request, 'browser');
  await page.goto('/account/notifications/');
  const browser = page.getByRole('checkbox', { name: 'Requests received: Browser' });

  await setPush(page, { permission: 'denied' });
  await browser.click(); // the toggle reverts
  await expect(page.getByRole('alert')).toHaveText('Notifications are blocked. Please enable them in your browser settings.');
  await expect(browser).not.toBeChecked();

  await setPush(page, { permission: 'default', answer: 'default' }); // the member closes the prompt
  await browser.click();
  await expect(page.getByRole('alert')).toHaveText('Permission request was dismissed. Please try again.');
  await expect(browser).not.toBeChecked();

  await setPush(page, { answer: 'granted' });
  await browser.click();
  await expect(browser).toBeChecked();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The page's clock stops before the send, so the 10 s count from when the result shows in page
  // time only: on a busy machine the real seconds the checks below take no longer hide it early.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.getByRole('button', { name: 'Send test notification' }).click();
  const result = page.getByRole('status').filter({ hasText: 'Browser:' });
  await expect(result).toHaveText('Email: sent · Browser: delivered to 1 device');
  const arrived = (await (await request.get(`${push}/_fake/messages`)).json()) as { payload: string }[];
  expect(arrived.map((m) => (JSON.parse(m.payload) as { title: string }).title)).toContain('Test notification');
  await page.clock.fastForward(9_000);
  await expect(result).toBeVisible();
  await page.clock.fastForward(1_500);
  await expect(result).toHaveCount(0);
});

test('a browser without push support is told so and the toggle stays off', async ({ page, request }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { PushManager?: unknown }).PushManager;
  });
  await freshMember(page, request, 'unsupported');
  await page.goto('/account/notifications/');
  const browser = page.getByRole('checkbox', { name: 'Tips: Browser' });
  await browser.click();
  await expect(page.getByRole('alert')).toHaveText('Push notifications are not supported in this browser.');
  await expect(browser).not.toBeChecked();
});

test('Slack connects through the local stand-in and a channel is chosen', async ({ page, request }) => {
  const { slack } = await services(request);
  await freshMember(page, request, 'slack');
  await page.goto('/account/notifications/');
  const section = page.getByRole('region', { name: 'Slack' });
  await expect(section.getByText('Not connected.')).toBeVisible();
  await section.getByRole('button', { name: 'Connect Slack' }).click();

  await expect(page).toHaveURL(new RegExp(`^${slack}/oauth/v2/authorize`));
  await expect(page.getByRole('heading', { name: /Tandem is requesting permission/ })).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();

  await expect(page).toHaveURL(/\/account\/notifications\/\?slack=connected$/);
  await expect(page.getByText('Slack is connected. Choose a channel below.')).toBeVisible();
  await expect(section.getByText(/No channel chosen yet\./)).toBeVisible();
  await section.getByRole('button', { name: 'Choose channel' }).click();
  const chooser = section.getByRole('group', { name: 'Slack channel chooser' });
  await chooser.getByRole('button', { name: 'Save channel' }).click();
  await expect(section.getByRole('alert')).toHaveText('Choose a Slack channel.'); // a channel is required
  await chooser.getByLabel('Channel').selectOption({ label: '#partnerships' });
  await chooser.getByRole('button', { name: 'Save channel' }).click();
  await expect(section.getByText(/Channel: #partnerships/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Slack' }).getByText(/Channel: #partnerships/)).toBeVisible();
});
