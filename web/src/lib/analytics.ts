import { config } from '@/config/env';

/**
 * Analytics events the server attaches to responses ({ analytics: { name, properties } }).
 *
 * Events go to a sink. In development every event is also written to the console.
 * Production analytics (aws-amplify, named by the customer) plugs in through
 * `installAnalyticsSink(() => import('./analytics-amplify').then(...))`, done by
 * `startAnalytics` (analytics-start.ts) when `/config.json` has an `analytics` block: the
 * loader is a dynamic import, so the library lands in its own chunk and never in the
 * initial bundle.
 * Events raised before a sink is installed are kept (up to MAX_QUEUED) and replayed.
 */
export interface AnalyticsEvent {
  readonly name: string;
  readonly properties: Readonly<Record<string, unknown>>;
}

/** Receives each event with the time it was raised (queued events keep their own time). */
export type AnalyticsSink = (event: AnalyticsEvent, at: Date) => void;

interface QueuedEvent {
  readonly event: AnalyticsEvent;
  readonly at: Date;
}

const MAX_QUEUED = 50;
let sink: AnalyticsSink | null = null;
let queue: QueuedEvent[] = [];

/** Reads `{ name, properties }` from an unknown value, or null when it is not an event. */
export function toAnalyticsEvent(value: unknown): AnalyticsEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const { name, properties } = value as { name?: unknown; properties?: unknown };
  if (typeof name !== 'string' || name === '') return null;
  const props =
    typeof properties === 'object' && properties !== null
      ? (properties as Record<string, unknown>)
      : {};
  return { name, properties: props };
}

export function trackEvent(event: AnalyticsEvent): void {
  if (config.isDev) {
    // eslint-disable-next-line no-console -- the development analytics sink is the console
    console.debug('[analytics]', event.name, event.properties);
  }
  deliver({ event, at: new Date() });
}

function deliver(queued: QueuedEvent): void {
  if (sink) {
    try {
      sink(queued.event, queued.at);
    } catch (error) {
      console.warn('Analytics sink failed', error);
    }
    return;
  }
  queue = [...queue, queued].slice(-MAX_QUEUED);
}

/** Sets (or clears) the sink and replays queued events into it. */
export function setAnalyticsSink(next: AnalyticsSink | null): void {
  sink = next;
  if (!next) return;
  const pending = queue;
  queue = [];
  pending.forEach(deliver);
}

/** Installs a sink that is loaded lazily (keep heavy SDKs out of the initial bundle). */
export async function installAnalyticsSink(load: () => Promise<AnalyticsSink>): Promise<void> {
  try {
    setAnalyticsSink(await load());
  } catch (error) {
    console.warn('Analytics could not start', error);
  }
}

/** Forgets the sink and any queued events (tests). */
export function resetAnalytics(): void {
  sink = null;
  queue = [];
}
