/**
 * Runtime configuration: `/config.json`, written next to the bundle by the deploy script
 * so one build serves every stack. Local development has no such file (a 404 is normal),
 * and any part that is missing or malformed simply reads as "not configured".
 *
 *   { "analytics": { "region": "eu-west-2", "identityPoolId": "eu-west-2:<uuid>",
 *                    "streamName": "tandem-prod-analytics" } }
 */
export interface AnalyticsRuntimeConfig {
  /** Region of the Kinesis Data Firehose delivery stream. */
  readonly region: string;
  /** Cognito identity pool handing out guest credentials, e.g. 'eu-west-2:<uuid>'. */
  readonly identityPoolId: string;
  /** Firehose delivery stream the events go to. */
  readonly streamName: string;
}

export interface RuntimeConfig {
  readonly analytics: AnalyticsRuntimeConfig | null;
}

export const RUNTIME_CONFIG_URL = '/config.json';

const NOT_CONFIGURED: RuntimeConfig = Object.freeze({ analytics: null });

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const IDENTITY_POOL_ID = /^[a-z]{2}(-[a-z]+)+-\d+:[0-9a-f-]+$/i;
const STREAM_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

function readString(block: Record<string, unknown>, key: string, pattern: RegExp): string | null {
  const value = block[key];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return pattern.test(trimmed) ? trimmed : null;
}

/**
 * Reads the `analytics` block: null when it is absent, or (with a console warning, since
 * a deploy wrote it) when it is present but incomplete.
 */
export function readAnalyticsConfig(value: unknown): AnalyticsRuntimeConfig | null {
  if (typeof value !== 'object' || value === null) return null;
  const block = (value as { analytics?: unknown }).analytics;
  if (block === undefined || block === null) return null;
  if (typeof block !== 'object' || Array.isArray(block)) {
    console.warn('Ignoring the analytics block of /config.json: not an object');
    return null;
  }
  const fields = block as Record<string, unknown>;
  const region = readString(fields, 'region', REGION);
  const identityPoolId = readString(fields, 'identityPoolId', IDENTITY_POOL_ID);
  const streamName = readString(fields, 'streamName', STREAM_NAME);
  if (!region || !identityPoolId || !streamName) {
    console.warn(
      'Ignoring the analytics block of /config.json: it needs region, identityPoolId and streamName',
    );
    return null;
  }
  return Object.freeze({ region, identityPoolId, streamName });
}

export function readRuntimeConfig(value: unknown): RuntimeConfig {
  return Object.freeze({ analytics: readAnalyticsConfig(value) });
}

/**
 * Fetches `/config.json` (no auth headers, revalidated on every load). Never rejects:
 * a 404, a network error or a body that is not JSON all read as "not configured".
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  try {
    // Accept keeps the Vite dev server from answering with index.html instead of a 404.
    const response = await fetch(RUNTIME_CONFIG_URL, {
      cache: 'no-cache',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) return NOT_CONFIGURED;
    return readRuntimeConfig(await response.json());
  } catch {
    return NOT_CONFIGURED;
  }
}
