import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveApp } from '@/lib/leave-app';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { TEST_MESSAGE_MS } from './NotificationsPage';

vi.mock('@/lib/leave-app', () => ({ leaveApp: vi.fn() }));

const flags = (email: boolean, browser = false) => ({ email, browser, slack: false });

const OPTIONS = {
  platforms: [
    { key: 'email', label: 'Email', active: true, tool_tip: 'Sent by email.' },
    { key: 'browser', label: 'Browser', active: true, tool_tip: 'Shown by this browser.' },
    { key: 'slack', label: 'Slack', active: false, tool_tip: 'Slack notifications are coming soon.' },
  ],
  sources: [
    {
      key: 'requests_received',
      label: 'Requests received',
      short_description: 'A brand sends you a connection request.',
      full_description: '',
      platforms: { na: [], mandatory: [] },
      hasSubOptions: false,
      subOptions: [],
    },
    {
      key: 'new_matches',
      label: 'New matches',
      short_description: 'New brands are suggested to you.',
      full_description: '',
      platforms: { na: [], mandatory: [] },
      hasSubOptions: true,
      subOptions: [
        { key: 'daily_digest', name: 'Daily digest', description: 'One summary a day.', criteria: '' },
        { key: 'each_run', name: 'Each run', description: 'After every run.', criteria: '' },
      ],
    },
    {
      key: 'billing_account',
      label: 'Billing and account',
      short_description: 'Payments and account notices.',
      full_description: '',
      platforms: { na: ['slack'], mandatory: ['email'] },
      hasSubOptions: false,
      subOptions: [],
    },
  ],
};

const SETTINGS = {
  requests_received: flags(true),
  new_matches: { ...flags(true), subOptions: { daily_digest: flags(true), each_run: flags(false) } },
  billing_account: flags(true),
};

function open(routes: Record<string, MockAnswer> = {}) {
  signIn();
  const api = mockApi({
    ...shellRoutes(),
    'GET notifications/options': OPTIONS,
    'GET notifications/user': SETTINGS,
    'GET slack/status': { connected: false, channelName: null },
    'GET notifications/sign-in-links': { enabled: true },
    'PUT notifications/user': ({ body }) => body,
    ...routes,
  });
  return { api, ...renderRoute('/account/notifications/') };
}

function row(name: string) {
  return within(screen.getByRole('row', { name: new RegExp(`^${name}`) }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('NotificationsPage', () => {
  it('shows a toggle per source and channel, Required, N/A and Coming Soon', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Requests received: Email' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Requests received: Browser' })).not.toBeChecked();
    expect(row('Requests received').getByText('Coming Soon')).toBeInTheDocument();
    expect(row('Billing and account').getByText('Required')).toBeInTheDocument();
    expect(row('Billing and account').getByText('N/A')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Billing and account: Email' })).not.toBeInTheDocument();
  });

  it('disables sub-options while the source toggle is on', async () => {
    open();
    const digestEmail = await screen.findByRole('checkbox', { name: 'New matches, Daily digest: Email' });
    expect(digestEmail).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'New matches, Each run: Browser' })).toBeEnabled();
  });

  it('saves one toggle as a partial settings object', async () => {
    const { api, user } = open();
    await user.click(await screen.findByRole('checkbox', { name: 'Requests received: Email' }));
    await vi.waitFor(() => {
      expect(api.calls('PUT notifications/user')).toHaveLength(1);
    });
    expect(api.calls('PUT notifications/user')[0]?.body).toEqual({ requests_received: { email: false } });
  });

  it('shows a refused save once, above the table, and leaves the toggle as it was', async () => {
    const { user } = open({ 'PUT notifications/user': jsonResponse({ error: 'Settings could not be saved' }, 400) });
    const box = await screen.findByRole('checkbox', { name: 'Requests received: Email' });
    await user.click(box);
    expect(await screen.findByRole('alert')).toHaveTextContent('Settings could not be saved');
    expect(screen.getAllByText('Settings could not be saved')).toHaveLength(1); // no error toast as well
    expect(box).toBeChecked();
  });

  it('shows the refusal of the first of two quick toggles even when the second is saved', async () => {
    let release: (() => void) | undefined;
    const firstHeld = new Promise<void>((resolve) => { release = resolve; });
    let calls = 0;
    const { user } = open({
      'PUT notifications/user': async () => {
        calls += 1;
        if (calls === 1) {
          await firstHeld; // the first save answers after the second was sent
          return jsonResponse({ error: 'Settings could not be saved' }, 400);
        }
        return SETTINGS;
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Requests received: Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'New matches: Email' }));
    await vi.waitFor(() => {
      expect(calls).toBe(2); // both saves were sent
    });
    release?.();
    expect(await screen.findByRole('alert')).toHaveTextContent('Settings could not be saved');
  });

  it('says why the test notification failed', async () => {
    const { user } = open({
      'POST browser-notifications/send-test': jsonResponse({ error: 'Turn browser notifications on first' }, 400),
    });
    await user.click(await screen.findByRole('button', { name: 'Send test notification' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send test notification: Turn browser notifications on first',
    );
  });

  it('says push is unsupported and leaves the browser toggle off', async () => {
    vi.stubGlobal('PushManager', undefined);
    Reflect.deleteProperty(window, 'PushManager');
    const { api, user } = open();
    const toggle = await screen.findByRole('checkbox', { name: 'Requests received: Browser' });
    await user.click(toggle);
    expect(await screen.findByText('Push notifications are not supported in this browser.')).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(api.calls('PUT notifications/user')).toHaveLength(0);
  });

  it('says notifications are blocked when permission was denied', async () => {
    vi.stubGlobal('PushManager', { supported: true });
    vi.stubGlobal('Notification', { permission: 'denied', requestPermission: vi.fn() });
    Object.defineProperty(navigator, 'serviceWorker', { value: { register: vi.fn() }, configurable: true });
    const { api, user } = open();
    const toggle = await screen.findByRole('checkbox', { name: 'Requests received: Browser' });
    await user.click(toggle);
    expect(
      await screen.findByText('Notifications are blocked. Please enable them in your browser settings.'),
    ).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(api.calls('PUT notifications/user')).toHaveLength(0);
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('shows the test notification result per channel, hidden after 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = open({
      'POST browser-notifications/send-test': { message: 'Browser: delivered to 2 devices' },
    });
    await user.click(await screen.findByRole('button', { name: 'Send test notification' }));
    expect(await screen.findByText('Browser: delivered to 2 devices')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TEST_MESSAGE_MS);
    });
    expect(screen.queryByText('Browser: delivered to 2 devices')).not.toBeInTheDocument();
  });

  it('connects Slack and asks for a channel before saving', async () => {
    const { user } = open({ 'GET slack/auth': { url: 'https://slack.test/oauth/v2/authorize?state=s' } });
    await user.click(await screen.findByRole('button', { name: 'Connect Slack' }));
    await vi.waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('https://slack.test/oauth/v2/authorize?state=s');
    });
  });

  it('chooses a Slack channel once connected', async () => {
    const { api, user } = open({
      'GET slack/status': { connected: true, channelName: null, teamName: 'Oat Team' },
      'GET slack/channels': { channels: [{ id: 'C01', name: 'general' }, { id: 'C02', name: 'partnerships' }] },
      'POST slack/select-channel': { connected: true, channelName: 'partnerships', teamName: 'Oat Team' },
    });
    await user.click(await screen.findByRole('button', { name: 'Choose channel' }));
    await user.click(await screen.findByRole('button', { name: 'Save channel' }));
    expect(screen.getByText('Choose a Slack channel.')).toBeInTheDocument();
    await user.selectOptions(await screen.findByRole('combobox', { name: /Channel/ }), 'C02');
    await user.click(screen.getByRole('button', { name: 'Save channel' }));
    expect(await screen.findByText(/Channel: #partnerships/)).toBeInTheDocument();
    expect(api.calls('POST slack/select-channel')[0]?.body).toEqual({ channelId: 'C02', channelName: 'partnerships' });
  });

  describe('with Slack offered', () => {
    const ACTIVE = {
      ...OPTIONS,
      platforms: OPTIONS.platforms.map((p) => (p.key === 'slack' ? { ...p, active: true, tool_tip: 'Posted to Slack.' } : p)),
    };

    it('says Slack must be connected first when it is chosen before, and saves nothing', async () => {
      const { api, user } = open({ 'GET notifications/options': ACTIVE });
      const box = await screen.findByRole('checkbox', { name: 'Requests received: Slack' });
      await screen.findByRole('button', { name: 'Connect Slack' });
      await user.click(box);
      expect(await screen.findByText("Slack isn't connected. Connect Slack first.")).toBeInTheDocument();
      expect(box).not.toBeChecked();
      expect(api.calls('PUT notifications/user')).toHaveLength(0);
    });

    it('disconnects Slack after confirming, and shows it off in the table', async () => {
      let connected = true;
      const { api, user } = open({
        'GET notifications/options': ACTIVE,
        'GET slack/status': () => ({ connected, channelName: connected ? 'partnerships' : null, teamName: connected ? 'Oat Team' : null }),
        'GET notifications/user': () => ({ ...SETTINGS, requests_received: { ...flags(true), slack: connected } }),
        'POST slack/disconnect': () => {
          connected = false;
          return { connected: false, channelName: null, teamName: null };
        },
      });
      expect(await screen.findByRole('checkbox', { name: 'Requests received: Slack' })).toBeChecked();
      await user.click(await screen.findByRole('button', { name: 'Disconnect Slack' }));
      const dialog = within(await screen.findByRole('dialog', { name: 'Disconnect Slack?' }));
      await user.click(dialog.getByRole('button', { name: 'Disconnect Slack' }));
      expect(await screen.findByRole('button', { name: 'Connect Slack' })).toBeInTheDocument();
      expect(api.calls('POST slack/disconnect')).toHaveLength(1);
      await vi.waitFor(() => {
        expect(screen.getByRole('checkbox', { name: 'Requests received: Slack' })).not.toBeChecked();
      });
    });
  });

  it('turns the sign-in links in emails off', async () => {
    const { api, user } = open({ 'PUT notifications/sign-in-links': ({ body }) => body });
    const toggle = await screen.findByRole('checkbox', { name: 'Sign me in from links in emails' });
    await vi.waitFor(() => {
      expect(toggle).toBeChecked();
    });
    await user.click(toggle);
    await vi.waitFor(() => {
      expect(toggle).not.toBeChecked();
    });
    expect(api.calls('PUT notifications/sign-in-links')[0]?.body).toEqual({ enabled: false });
  });
});
