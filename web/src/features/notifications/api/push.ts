import { ApiError, api } from '@/lib/api';

/** SPEC sections 5 and 8: the browser toggle's messages. */
export const PUSH_MESSAGES = {
  unsupported: 'Push notifications are not supported in this browser.',
  blocked: 'Notifications are blocked. Please enable them in your browser settings.',
  denied: 'Permission denied. Please enable notifications in your browser settings and refresh the page.',
  dismissed: 'Permission request was dismissed. Please try again.',
  failedToSubscribe: 'Failed to subscribe',
  failedToInit: 'Failed to initialize push notifications',
  disabledOnLoad:
    'Browser notifications were disabled because permission is not granted. Please enable notifications and try again.',
} as const;

/**
 * A browser push step that failed, with the message to show: an ApiError with status 0, as
 * for any step no server answered (lib/mutations.ts), so it reads like any refused write.
 */
export class PushError extends ApiError {
  override readonly name = 'PushError';

  constructor(message: string) {
    super(0, message);
  }
}

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  try {
    await navigator.serviceWorker.register('/sw.js');
    return await navigator.serviceWorker.ready;
  } catch {
    throw new PushError(PUSH_MESSAGES.failedToInit);
  }
}

/** Whether this browser already has a push subscription (the on-load check). */
export async function isSubscribed(): Promise<boolean> {
  if (!pushSupported()) return false;
  const existing = await navigator.serviceWorker.getRegistration('/sw.js');
  return Boolean(existing && (await existing.pushManager.getSubscription()));
}

/**
 * Turn browser push on from the member's click: unsupported and denied are refused with their
 * message; a permission not asked yet is asked now; granted but not subscribed subscribes and
 * posts the subscription. Throws PushError with the message to show; the toggle then stays off.
 */
export async function enableBrowserPush(): Promise<void> {
  if (!pushSupported()) throw new PushError(PUSH_MESSAGES.unsupported);
  if (Notification.permission === 'denied') throw new PushError(PUSH_MESSAGES.blocked);
  if (Notification.permission === 'default') {
    let answer: NotificationPermission;
    try {
      answer = await Notification.requestPermission();
    } catch (error) {
      throw new PushError(`Failed to request permission: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (answer === 'denied') throw new PushError(PUSH_MESSAGES.denied);
    if (answer !== 'granted') throw new PushError(PUSH_MESSAGES.dismissed);
  }
  const worker = await registration();
  try {
    let subscription = await worker.pushManager.getSubscription();
    if (!subscription) {
      const { publicKey } = await api.get<{ publicKey: string }>('browser-notifications/vapid-public-key');
      subscription = await worker.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: urlBase64ToUint8Array(publicKey),
      });
    }
    await api.post('browser-notifications/subscribe', subscription.toJSON());
  } catch {
    throw new PushError(PUSH_MESSAGES.failedToSubscribe);
  }
}

/** enableBrowserPush, whose every failure is a PushError (an unforeseen one says push could not start). */
export async function turnOnBrowserPush(): Promise<void> {
  try {
    await enableBrowserPush();
  } catch (error) {
    throw error instanceof PushError ? error : new PushError(PUSH_MESSAGES.failedToInit);
  }
}
