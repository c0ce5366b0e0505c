import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirmed } from '@/components/ui/confirmed';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError, messageOf } from '@/lib/api';
import {
  signInLinksQuery,
  optionsQuery,
  settingsQuery,
  slackChannelsQuery,
  slackStatusQuery,
  useConnectSlack,
  useDisconnectSlack,
  useSaveSettings,
  useSaveSignInLinks,
  useSelectSlackChannel,
  useSendTestNotification,
  type NotificationPlatform,
  type NotificationSettings,
  type NotificationSource,
  type PlatformKey,
  type SettingsChange,
  type SlackChannel,
} from '../api/notifications';
import { isSubscribed, PUSH_MESSAGES, pushSupported } from '../api/push';

/** SPEC section 9: the test notification's confirmation hides after 10 seconds. */
export const TEST_MESSAGE_MS = 10_000;

/** The API's words when Slack is chosen before it is connected (tandem.domain.notifications). */
export const SLACK_NOT_CONNECTED = "Slack isn't connected. Connect Slack first.";

function browserOnAnywhere(settings: NotificationSettings): SettingsChange | null {
  const change: SettingsChange = {};
  for (const [key, entry] of Object.entries(settings)) {
    const subs = Object.entries(entry.subOptions ?? {}).filter(([, flags]) => flags.browser);
    if (entry.browser || subs.length) {
      change[key] = { ...(entry.browser ? { browser: false } : {}) };
      if (subs.length) change[key].subOptions = Object.fromEntries(subs.map(([sub]) => [sub, { browser: false }]));
    }
  }
  return Object.keys(change).length ? change : null;
}

function Cell({
  platform,
  source,
  checked,
  disabled,
  label,
  onChange,
}: {
  platform: NotificationPlatform;
  source: NotificationSource;
  checked: boolean;
  disabled?: boolean;
  label: string;
  onChange: (on: boolean) => void;
}) {
  if (source.platforms.na.includes(platform.key)) return <td className="notifications__fixed">N/A</td>;
  if (source.platforms.mandatory.includes(platform.key)) return <td className="notifications__fixed">Required</td>;
  if (!platform.active) return <td className="notifications__fixed" title={platform.tool_tip}>Coming Soon</td>;
  return (
    <td>
      <input type="checkbox" aria-label={label} checked={checked} disabled={disabled} onChange={(event) => { onChange(event.target.checked); }} />
    </td>
  );
}

function SlackSection() {
  const status = useQuery(slackStatusQuery());
  const [choosing, setChoosing] = useState(false);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);
  const channels = useQuery({ ...slackChannelsQuery(), enabled: choosing });
  const connect = useConnectSlack();
  const disconnect = useDisconnectSlack();
  const select = useSelectSlackChannel();
  const showError = (failure: unknown) => { setError(messageOf(failure)); };
  const askDisconnect = async () => {
    const yes = await confirmed({
      title: 'Disconnect Slack?',
      message: 'Tandem stops posting to Slack, and Slack is turned off in your notifications. You can connect it again at any time.',
      confirmLabel: 'Disconnect Slack',
      danger: true,
    });
    if (!yes) return;
    setError(null);
    disconnect.mutate(undefined, { onSuccess: () => { setChoosing(false); }, onError: showError });
  };

  function save() {
    const channel = channels.data?.find((item) => item.id === chosen);
    if (!channel) {
      setError('Choose a Slack channel.');
      return;
    }
    setError(null);
    select.mutate(channel satisfies SlackChannel, { onSuccess: () => { setChoosing(false); }, onError: showError });
  }

  return (
    <section aria-labelledby="slack-heading" className="notifications__slack card">
      <h2 id="slack-heading">Slack</h2>
      {status.isPending && <p>Checking Slack…</p>}
      {status.data?.message && <Alert tone="info">{status.data.message}</Alert>}
      {status.data && !status.data.connected && (
        <>
          <p>Not connected. Connect Slack to choose it for your notifications.</p>
          <Button busy={connect.isPending} onClick={() => { connect.mutate(undefined, { onError: showError }); }}>
            Connect Slack
          </Button>
        </>
      )}
      {status.data?.connected && (
        <>
          <p>
            Connected{status.data.teamName ? ` to ${status.data.teamName}` : ''}.{' '}
            {status.data.channelName ? `Channel: #${status.data.channelName}` : 'No channel chosen yet.'}
          </p>
          <div className="notifications__slack-actions">
            {!choosing && (
              <Button variant="secondary" onClick={() => { setChoosing(true); }}>
                Choose channel
              </Button>
            )}
            <Button variant="secondary" busy={disconnect.isPending} onClick={() => void askDisconnect()}>
              Disconnect Slack
            </Button>
          </div>
        </>
      )}
      {choosing && (
        <div role="group" aria-label="Slack channel chooser">
          {channels.isPending && <p>Loading channels…</p>}
          {channels.isError && <Alert>{describeError(channels.error)}</Alert>}
          {channels.data && (
            <label>
              Channel{' '}
              <select value={chosen} onChange={(event) => { setChosen(event.target.value); }}>
                <option value="">Choose a channel</option>
                {channels.data.map((channel) => (
                  <option key={channel.id} value={channel.id}>
                    #{channel.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <Button busy={select.isPending} onClick={save}>
            Save channel
          </Button>
        </div>
      )}
      {error && <Alert>{error}</Alert>}
    </section>
  );
}

/** Whether the emails that bring the member back carry a one-click sign-in link. */
function SignInLinksSection() {
  const links = useQuery(signInLinksQuery());
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSignInLinks();
  return (
    <section aria-labelledby="sign-in-links-heading" className="card">
      <h2 id="sign-in-links-heading">Sign-in links in emails</h2>
      <p>
        Emails about a request you received, a request accepted or new matches can sign you in with one click, straight to
        what they are about. Each link works once, for 72 hours.
      </p>
      <label className="notifications__switch">
        <input
          type="checkbox"
          checked={links.data?.enabled ?? false}
          disabled={!links.data || save.isPending}
          onChange={(event) => {
            save.mutate(event.target.checked, {
              onSuccess: () => { setError(null); },
              onError: (failure) => { setError(messageOf(failure)); },
            });
          }}
        />{' '}
        Sign me in from links in emails
      </label>
      {error && <Alert>{error}</Alert>}
    </section>
  );
}

/** Notifications (SPEC section 2): per source, a toggle per channel; sub-options; browser push; Slack. */
export function NotificationsPage() {
  const options = useQuery(optionsQuery());
  const settings = useQuery(settingsQuery());
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [testMessage, setTestMessage] = useState<string | null>(null);
  const checkedOnLoad = useRef(false);
  const slack = useQuery(slackStatusQuery());

  const showError = (failure: unknown) => { setError(messageOf(failure)); };
  const save = useSaveSettings({ onError: showError });
  const saveChange = save.mutate;

  // On load: browser notifications saved as on, while this browser has permission but no subscription, go off.
  useEffect(() => {
    if (!settings.data || checkedOnLoad.current) return;
    checkedOnLoad.current = true;
    const change = browserOnAnywhere(settings.data);
    if (!change || !pushSupported() || Notification.permission !== 'granted') return;
    void isSubscribed().then((subscribed) => {
      if (subscribed) return;
      saveChange({ change });
      setWarning(PUSH_MESSAGES.disabledOnLoad);
    });
  }, [settings.data, saveChange]);

  useEffect(() => {
    if (!testMessage) return undefined;
    const timer = window.setTimeout(() => { setTestMessage(null); }, TEST_MESSAGE_MS);
    return () => { window.clearTimeout(timer); };
  }, [testMessage]);

  const test = useSendTestNotification();
  const sendTest = () => {
    test.mutate(undefined, {
      onSuccess: (answer) => {
        setError(null);
        setTestMessage(answer.message);
      },
      onError: (failure) => {
        const text = messageOf(failure);
        setError(text === null ? null : `Failed to send test notification: ${text}`);
      },
    });
  };

  function toggle(platform: PlatformKey, change: SettingsChange, on: boolean) {
    setError(null);
    if (platform === 'slack' && on && slack.data?.connected !== true) {
      setError(SLACK_NOT_CONNECTED);
      return; // the toggle stays off
    }
    // Turning browser push on asks this browser first; a refusal says why and the toggle stays off.
    save.mutate({ change, browserPush: platform === 'browser' && on });
  }

  if (options.isPending || settings.isPending) return <PageLoader />;
  if (options.isError || settings.isError) return <Alert>{describeError(options.error ?? settings.error)}</Alert>;

  const platforms = options.data.platforms;
  return (
    <div className="notifications">
      <h1>Notifications</h1>
      <p>Choose what Tandem tells you about, and where.</p>
      {params.get('slack') === 'connected' && <Alert tone="success">Slack is connected. Choose a channel below.</Alert>}
      {params.get('slackError') && <Alert>{params.get('slackError')}</Alert>}
      {warning && <Alert tone="info">{warning}</Alert>}
      {error && <Alert>{error}</Alert>}
      <div className="notifications__table-wrap">
        <table className="notifications__table">
          <thead>
            <tr>
              <th scope="col">Notification</th>
              {platforms.map((platform) => (
                <th scope="col" key={platform.key} title={platform.tool_tip}>
                  {platform.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {options.data.sources.flatMap((source) => {
              const entry = settings.data[source.key];
              const rows = [
                <tr key={source.key}>
                  <th scope="row">
                    {source.label}
                    <span className="notifications__description">{source.short_description}</span>
                  </th>
                  {platforms.map((platform) => (
                    <Cell
                      key={platform.key}
                      platform={platform}
                      source={source}
                      label={`${source.label}: ${platform.label}`}
                      checked={Boolean(entry?.[platform.key])}
                      onChange={(on) => { toggle(platform.key, { [source.key]: { [platform.key]: on } }, on); }}
                    />
                  ))}
                </tr>,
              ];
              for (const option of source.subOptions) {
                rows.push(
                  <tr key={`${source.key}.${option.key}`} className="notifications__sub">
                    <th scope="row">
                      {option.name}
                      <span className="notifications__description">{option.description}</span>
                    </th>
                    {platforms.map((platform) => (
                      <Cell
                        key={platform.key}
                        platform={platform}
                        source={source}
                        label={`${source.label}, ${option.name}: ${platform.label}`}
                        checked={Boolean(entry?.subOptions?.[option.key]?.[platform.key])}
                        disabled={Boolean(entry?.[platform.key])}
                        onChange={(on) => {
                          toggle(platform.key, { [source.key]: { subOptions: { [option.key]: { [platform.key]: on } } } }, on);
                        }}
                      />
                    ))}
                  </tr>,
                );
              }
              return rows;
            })}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="test-heading" className="card">
        <h2 id="test-heading">Test notification</h2>
        <p>Sends a browser notification to every browser you turned notifications on in.</p>
        <Button variant="secondary" busy={test.isPending} onClick={sendTest}>
          Send test notification
        </Button>
        {testMessage && <Alert tone="success">{testMessage}</Alert>}
      </section>
      <SignInLinksSection />
      <SlackSection />
    </div>
  );
}
