import { config } from '@/config/env';
import { getAnalyticsId } from './analytics-id';
import { getSelectedBrand, getSession } from './session';

/** Header names shared with the server (DESIGN: the brand header is checked on every route). */
export const API_HEADERS = {
  timezoneOffset: 'X-Timezone-Offset',
  brand: 'X-Brand-Id',
  analyticsId: 'X-Analytics-Id',
} as const;

/** Every failed call rejects with this: the HTTP status and the server's `error` text. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  readonly method?: HttpMethod;
  /** Sent as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
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

export function buildHeaders(options: Pick<RequestOptions, 'body' | 'headers'> = {}): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const token = getSession()?.accessToken;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set(API_HEADERS.timezoneOffset, String(timezoneOffsetHours()));
  headers.set(API_HEADERS.brand, getSelectedBrand());
  headers.set(API_HEADERS.analyticsId, getAnalyticsId());
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
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR);
  }
}

/**
 * Calls the API and resolves with the parsed JSON body, or rejects with ApiError.
 *
 * This is the single place that will grow the SPEC section 8 behaviour: on a 401
 * (other than from the refresh call itself) run one shared token refresh, then
 * `send` again; on a 403 force a logout.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, errorMessage(body, response.status), body);
  return body as T;
}

type BodylessOptions = Omit<RequestOptions, 'method' | 'body'>;

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
