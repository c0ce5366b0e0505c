import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { leaveApp } from '@/lib/leave-app';
import { turnOnBrowserPush } from './push';

export type PlatformKey = 'email' | 'browser' | 'slack';

export interface NotificationPlatform {
  readonly key: PlatformKey;
  readonly label: string;
  readonly active: boolean;
  readonly tool_tip: string;
}

export interface NotificationSubOption {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly criteria: string;
}

export interface NotificationSource {
  readonly key: string;
  readonly label: string;
  readonly short_description: string;
  readonly full_description: string;
  readonly platforms: { readonly na: readonly PlatformKey[]; readonly mandatory: readonly PlatformKey[] };
  readonly hasSubOptions: boolean;
  readonly subOptions: readonly NotificationSubOption[];
}

export interface NotificationOptions {
  readonly platforms: readonly NotificationPlatform[];
  readonly sources: readonly NotificationSource[];
}

export type PlatformFlags = Readonly<Record<PlatformKey, boolean>>;
export interface SourceSettings extends PlatformFlags {
  readonly subOptions?: Readonly<Record<string, PlatformFlags>>;
}
export type NotificationSettings = Readonly<Record<string, SourceSettings>>;

/** A partial settings object (PUT notifications/user): keyed by source, platform flags or subOptions. */
export type SettingsChange = Record<string, Partial<Record<PlatformKey, boolean>> & { subOptions?: Record<string, Partial<Record<PlatformKey, boolean>>> }>;

export interface SlackStatus {
  readonly connected: boolean;
  readonly channelName: string | null;
  readonly teamName?: string | null;
  readonly message?: string;
}

export interface SlackChannel {
  readonly id: string;
  readonly name: string;
}

export interface TestResult {
  readonly message: string;
}

export const notificationKeys = {
  options: ['notifications', 'options'] as const,
  user: ['notifications', 'user'] as const,
  slack: ['notifications', 'slack'] as const,
  slackChannels: ['notifications', 'slack', 'channels'] as const,
};

export const optionsQuery = () =>
  queryOptions({ queryKey: notificationKeys.options, queryFn: () => api.get<NotificationOptions>('notifications/options') });

export const settingsQuery = () =>
  queryOptions({ queryKey: notificationKeys.user, queryFn: () => api.get<NotificationSettings>('notifications/user') });

export const slackStatusQuery = () =>
  queryOptions({ queryKey: notificationKeys.slack, queryFn: () => api.get<SlackStatus>('slack/status') });

export const slackChannelsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.slackChannels,
    queryFn: () => api.get<{ channels: SlackChannel[] }>('slack/channels').then((answer) => answer.channels),
  });

export function saveSettings(change: SettingsChange): Promise<NotificationSettings> {
  return api.put<NotificationSettings>('notifications/user', change);
}

export function sendTestNotification(): Promise<TestResult> {
  return api.post<TestResult>('browser-notifications/send-test', {
    title: 'Test notification',
    body: 'Notifications from Tandem will look like this.',
    icon: '/favicon.svg',
    url: '/account/notifications/',
  });
}

/** GET / PUT notifications/sign-in-links: whether emails carry a one-click sign-in link. */
export interface SignInLinks {
  readonly enabled: boolean;
}

export const signInLinksQuery = () =>
  queryOptions({
    queryKey: [...notificationKeys.user, 'sign-in-links'] as const,
    queryFn: () => api.get<SignInLinks>('notifications/sign-in-links'),
  });

export function saveSignInLinks(enabled: boolean): Promise<SignInLinks> {
  return api.put<SignInLinks>('notifications/sign-in-links', { enabled });
}

/** POST slack/disconnect: Slack forgotten, and turned off wherever it was chosen. */
export function disconnectSlack(): Promise<SlackStatus> {
  return api.post<SlackStatus>('slack/disconnect', {});
}

export function slackAuthUrl(): Promise<string> {
  return api.get<{ url: string }>('slack/auth').then((answer) => answer.url);
}

export function selectSlackChannel(channel: SlackChannel): Promise<SlackStatus> {
  return api.post<SlackStatus>('slack/select-channel', { channelId: channel.id, channelName: channel.name });
}

// ---------------------------------------------------------------- writes (mutations)
// The Notifications page tells a refusal in its own alerts (above the table, in the Slack and
// sign-in-links sections): no error toast.

export interface SettingsSave {
  readonly change: SettingsChange;
  /** Browser push is being turned on: this browser asks permission and subscribes first (SPEC section 5). */
  readonly browserPush?: boolean;
}

/**
 * Save a change of the notification settings; turning browser push on subscribes this browser first.
 * `onError` hears every refused save (a per-call callback would hear only the latest of two quick
 * toggles, and the first one's refusal would be lost).
 */
export function useSaveSettings({ onError }: { readonly onError?: (failure: unknown) => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ change, browserPush = false }: SettingsSave) => {
      if (browserPush) await turnOnBrowserPush();
      return saveSettings(change);
    },
    onSuccess: (saved) => client.setQueryData(notificationKeys.user, saved),
    onError,
  });
}

/** Send a test browser notification. */
export function useSendTestNotification() {
  return useMutation({ mutationFn: sendTestNotification });
}

/** Turn the one-click sign-in links in emails on or off. */
export function useSaveSignInLinks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSignInLinks,
    onSuccess: (answer) => client.setQueryData(signInLinksQuery().queryKey, answer),
  });
}

/** Connect Slack: the browser goes to Slack's consent page. */
export function useConnectSlack() {
  return useMutation({
    mutationFn: slackAuthUrl,
    onSuccess: (url) => {
      leaveApp(url);
    },
  });
}

/** Disconnect Slack: it is off wherever it was chosen, so the settings are asked again. */
export function useDisconnectSlack() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: disconnectSlack,
    onSuccess: (answer) => {
      client.setQueryData(notificationKeys.slack, answer);
      void client.invalidateQueries({ queryKey: notificationKeys.user });
    },
  });
}

/** Choose the Slack channel Tandem posts to. */
export function useSelectSlackChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: selectSlackChannel,
    onSuccess: (answer) => client.setQueryData(notificationKeys.slack, answer),
  });
}

const unsubscribePath = (token: string) => `notifications/unsubscribe/${encodeURIComponent(token)}`;

/** What an unsubscribe link switches off (docs/api.md), read when its page opens; changes nothing. */
export interface UnsubscribeLink {
  readonly source: string;
  readonly label: string;
}

/** The link's check: the kind of email it names, or why it does not work (400 / 410), before any click. */
export function unsubscribeLinkQuery(token: string) {
  return queryOptions({
    queryKey: ['unsubscribe', token] as const,
    queryFn: () => api.get<UnsubscribeLink>(unsubscribePath(token), { auth: false }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** One-click unsubscribe from an email's footer link (the token names the member and the kind of email). */
export function useUnsubscribe(token: string) {
  return useMutation({
    mutationFn: () => api.post<{ message: string }>(unsubscribePath(token), undefined, { auth: false }),
  });
}
