import { installAnalyticsSink } from './analytics';
import { loadRuntimeConfig } from './runtime-config';

let started: Promise<void> | null = null;

/**
 * Starts production analytics when `/config.json` has an `analytics` block: the
 * aws-amplify sink is imported lazily and receives the events queued so far. Without
 * one (local development, a 404, a malformed file) nothing happens. Runs once per page;
 * never rejects.
 */
export function startAnalytics(): Promise<void> {
  started ??= (async () => {
    const { analytics } = await loadRuntimeConfig();
    if (!analytics) return;
    await installAnalyticsSink(() =>
      import('./analytics-amplify').then(({ createAmplifySink }) => createAmplifySink(analytics)),
    );
  })();
  return started;
}

/** Lets startAnalytics run again (tests). */
export function resetAnalyticsStart(): void {
  started = null;
}
