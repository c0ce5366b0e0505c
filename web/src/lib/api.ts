import { config } from '@/config/env';
import { toAnalyticsEvent, trackEvent } from './analytics';
import { getAnalyticsId } from './analytics-id';
import { forceLogout } from './force-logout';
import {
  getImpersonatedUser,
  getSelectedBrand,
  getSession,
  isAdmin,
  setGlobalMessage,
  updateTokens,
} from './session';

/** Header names shared with the server (DESIGN: the brand header is checked on every route). */
export const API_HEADERS = {
  timezoneOffset: 'X-Timezone-Offset',
  brand: 'X-Brand-Id',
  analyticsId: 'X-Analytics-Id',
  impersonate: 'X-Impersonate-User',
} as const;

/** Every failed call rejects with this: the HTTP status and the server's `error` text. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown = null) {
    super(message);
    this.status = status;
    this.body = body;
  }

  /** Per-field messages from a 400 answer ({"errors": {field: message}}). */
  get fieldErrors(): Readonly<Record<string, string>> {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    if (typeof errors !== 'object' || errors === null) return {};
    return Object.fromEntries(
      Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }
}

/**
 * The call failed because the session ended (refresh refused, or a 403 saying so): the
 * user is already on the way to the sign-in page, so callers need not show it.
 */
export class SessionEndedError extends ApiError {
  override readonly name: string = 'SessionEndedError';
}

const UNEXPECTED_ERROR = 'Something went wrong. Please try again.';

/** Text to show for a failed call: the server's message, or a generic apology. */
export function describeError(error: unknown): string {
  return error instanceof ApiError ? error.message : UNEXPECTED_ERROR;
}

/** What to tell the member about a failed load; null when the session ended (they are on the way to sign in). */
export function messageOf(error: unknown): string | null {
  return error instanceof SessionEndedError ? null : describeError(error);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  readonly method?: HttpMethod;
  /** Sent as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /**
   * The write outlives the page: a reload or a link followed right after it does not cancel it
   * (fetch's keepalive; small bodies only). For "done with" records the member may leave at once.
   */
  readonly keepalive?: boolean;
  /**
   * false for calls made without a session (sign-in, password and email links):
   * no bearer token is sent and a 401/403 is an ordinary error. Default true.
   */
  readonly auth?: boolean;
}

const NETWORK_ERROR = 'Could not reach Tandem. Check your connection and try again.';

/** Offset from UTC in hours, e.g. 1 in Paris in winter, -5 in New York, 5.5 in Delhi. */
export function timezoneOffsetHours(date: Date = new Date()): number {
  const hours = -date.getTimezoneOffset() / 60;
  return hours === 0 ? 0 : hours; // never "-0"
}

export function apiUrl(path: string): string {
  return config.apiBase + path.replace(/^\/+/, '');
}

export function buildHeaders(
  options: Pick<RequestOptions, 'body' | 'headers' | 'auth'> = {},
): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const token = options.auth === false ? undefined : getSession()?.accessToken;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set(API_HEADERS.timezoneOffset, String(timezoneOffsetHours()));
  headers.set(API_HEADERS.brand, getSelectedBrand());
  headers.set(API_HEADERS.analyticsId, getAnalyticsId());
  const impersonated = config.isDev && isAdmin() ? getImpersonatedUser() : null;
  if (impersonated) headers.set(API_HEADERS.impersonate, impersonated);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorMessage(body: unknown, status: number): string {
  if (typeof body === 'object' && body !== null) {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error !== '') return error;
    if (typeof message === 'string' && message !== '') return message;
  }
  return `Request failed (${status})`;
}

/** One network attempt; headers are rebuilt each time so a retry picks up new tokens. */
async function send(path: string, options: RequestOptions): Promise<Response> {
  try {
    return await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers: buildHeaders(options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }
}

interface Outcome {
  readonly ok: boolean;
  readonly status: number;
  readonly body: unknown;
}

/** Any answer may carry a message for the top bar and an analytics event (SPEC section 7). */
function applySideChannels(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const { globalMessage, analytics } = body as { globalMessage?: unknown; analytics?: unknown };
  if (typeof globalMessage === 'string') setGlobalMessage(globalMessage);
  const event = toAnalyticsEvent(analytics);
  if (event) trackEvent(event);
}

async function attempt(path: string, options: RequestOptions): Promise<Outcome> {
  const response = await send(path, options);
  const body = await readBody(response);
  applySideChannels(body);
  return { ok: response.ok, status: response.status, body };
}

function failure({ status, body }: Outcome): ApiError {
  return new ApiError(status, errorMessage(body, status), body);
}

function sessionEnded(error: ApiError): SessionEndedError {
  return new SessionEndedError(error.status, error.message, error.body);
}

export const REFRESH_PATH = 'users/refresh-token';

interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
}

function isTokenPair(body: unknown): body is TokenPair {
  if (typeof body !== 'object' || body === null) return false;
  const { access_token: access, refresh_token: refresh } = body as Record<string, unknown>;
  return typeof access === 'string' && access !== '' && typeof refresh === 'string' && refresh !== '';
}

/**
 * Swaps the refresh token for new tokens. Resolves true on success. A refused
 * refresh ends the session (SPEC section 8); a network failure or a server
 * error (5xx) keeps it, so a blip does not sign everyone out.
 */
async function runRefresh(): Promise<boolean> {
  const session = getSession();
  if (!session) return false;
  let outcome: Outcome;
  try {
    outcome = await attempt(REFRESH_PATH, {
      method: 'POST',
      auth: false,
      body: {
        refreshToken: session.refreshToken,
        uid: session.uid,
        initials: session.initials,
        name: session.name,
      },
    });
  } catch {
    return false;
  }
  if (outcome.ok && isTokenPair(outcome.body)) {
    updateTokens(outcome.body.access_token, outcome.body.refresh_token);
    return true;
  }
  if (outcome.status < 500) forceLogout();
  return false;
}

let refreshing: Promise<boolean> | null = null;

/**
 * One refresh shared by every request that failed with a 401 at the same time.
 * A request sent with a token that has since been replaced just retries.
 */
function refreshTokens(sentToken: string): Promise<boolean> {
  const current = getSession()?.accessToken;
  if (current === undefined) return Promise.resolve(false);
  if (current !== sentToken) return Promise.resolve(true);
  refreshing ??= runRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * The `code` of a 403 after which this session can do nothing (docs/api.md). Every other 403
 * (a suspended brand's send, an area the account lacks) is an ordinary error the page shows.
 */
export const SESSION_ENDED_CODE = 'session_ended';

function endsSession({ status, body }: Outcome): boolean {
  return status === 403 && (body as { code?: unknown } | null)?.code === SESSION_ENDED_CODE;
}

function forbiddenTarget(body: unknown): string | null {
  const target = (body as { redirect?: unknown } | null)?.redirect;
  return typeof target === 'string' ? target : null;
}

async function request<T>(path: string, options: RequestOptions): Promise<T> {
  const sentToken = options.auth === false ? undefined : getSession()?.accessToken;
  const first = await attempt(path, options);
  if (first.ok) return first.body as T;
  const error = failure(first);
  if (sentToken === undefined) throw error;

  if (endsSession(first)) {
    forceLogout(forbiddenTarget(first.body));
    throw sessionEnded(error);
  }
  if (first.status !== 401) throw error;

  // SPEC section 8: refresh once (shared), retry once, else raise the original error.
  if (!(await refreshTokens(sentToken))) {
    throw getSession() ? error : sessionEnded(error);
  }
  const retry = await attempt(path, options);
  if (retry.ok) return retry.body as T;
  if (endsSession(retry)) {
    forceLogout(forbiddenTarget(retry.body));
    throw sessionEnded(error);
  }
  throw error;
}

/**
 * Calls the API and resolves with the parsed JSON body, or rejects with ApiError.
 *
 * SPEC section 8: a 401 runs one shared token refresh and retries the call once;
 * a refused refresh or a 403 with code 'session_ended' signs the user out (SessionEndedError). A write's failure
 * is told by the app's one MutationCache handler (lib/mutations.ts), not here.
 */
export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return request<T>(path, options);
}

type BodylessOptions = Omit<RequestOptions, 'method' | 'body'>;

/**
 * Options for a call made for one brand: the brand header names it, whatever is
 * selected when the call leaves (a query keyed by brand asks for that brand; a path
 * naming a brand must match the header, the server refuses a mismatch).
 */
export function asBrand(brand: number | string): { readonly headers: Readonly<Record<string, string>> } {
  return { headers: { [API_HEADERS.brand]: String(brand) } };
}

export const api = {
  get: <T>(path: string, options?: BodylessOptions) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: BodylessOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodylessOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: BodylessOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
