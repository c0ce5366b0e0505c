import { vi } from 'vitest';
import { jsonResponse } from './render-route';

/** One request the app made, as a mocked route sees it. */
export interface MockRequest {
  readonly method: string;
  /** Path under /api/, e.g. 'users/login' or 'dashboard/2'. */
  readonly path: string;
  readonly headers: Headers;
  readonly body: unknown;
}

/** A route answer: a Response, a function making one (or a body), or a body for a 200. */
export type MockAnswer = Response | ((request: MockRequest) => unknown) | Record<string, unknown> | unknown[];

function toResponse(answer: unknown): Response {
  return answer instanceof Response ? answer : jsonResponse(answer);
}

const API_PREFIX = '/api/';

/**
 * Stubs fetch with a tiny API: keys are 'METHOD path' ('GET dashboard',
 * 'POST users/login'). Unknown routes answer 404. Returns the recorded requests.
 */
export function mockApi(routes: Readonly<Record<string, MockAnswer>> = {}) {
  const requests: MockRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url;
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: MockRequest = { method, path, headers: new Headers(init.headers), body };
    requests.push(request);
    const answer = routes[`${method} ${path}`];
    if (answer === undefined) return jsonResponse({ error: `No mock for ${method} ${path}` }, 404);
    return toResponse(typeof answer === 'function' ? await answer(request) : answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    /** Requests to one route ('GET dashboard'). */
    calls: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
  };
}

/** credits.areas as the server gives them to a member (every area). */
export const MEMBER_AREAS = {
  matches: true,
  connections: true,
  declines: true,
  'send-requests': true,
  'collab-ideas': true,
  'video-guides': true,
  collaborations: true,
  requests: true,
  billing: true,
} as const;

/** credits.areas of a feature-only account whose feature has not been live yet. */
export const FEATURE_ONLY_AREAS = {
  matches: false,
  connections: false,
  declines: false,
  'send-requests': false,
  'collab-ideas': false,
  'video-guides': false,
  collaborations: false,
  requests: false,
  billing: false,
} as const;

/** credits.areas of a feature-only account once a feature of theirs has been live. */
export const FEATURE_ONLY_LIVE_AREAS = { ...FEATURE_ONLY_AREAS, requests: true, billing: true } as const;

/**
 * A dashboard answer with sensible defaults. Its credits carry a member's `areas` unless the
 * test's credits give their own (`credits: null` for none at all).
 */
export function dashboardBody(overrides: Record<string, unknown> = {}) {
  const credits = overrides.credits;
  return {
    menuCounts: { dashboard: 0, matches: 0, requests: 0, connections: 0, declines: 0 },
    dashboard: { brandId: 1, brandName: 'Oat & Co' },
    userBrands: [{ id: 1, name: 'Oat & Co' }],
    whatsNew: [],
    matchRunOutstanding: false,
    matchRunId: null,
    ...overrides,
    credits: credits === null ? null : { areas: MEMBER_AREAS, ...(credits as Record<string, unknown> | undefined) },
  };
}

/** A login check answer with sensible defaults. */
export function loginCheckBody(overrides: Record<string, unknown> = {}) {
  return {
    id: 'u1',
    email: 'ana@oat.co',
    company_name: 'Oat & Co',
    brandId: 1,
    showWelcome: false,
    showWelcomeOpenerMessage: false,
    welcomeMessage: null,
    showNewbiePopup: false,
    showBrandVisibilityUpdatePupup: false,
    featureOnly: false,
    emailConfirmed: true,
    lastWebhookUpdate: {},
    ...overrides,
  };
}

/**
 * The app shell's two start-up calls, answered with defaults, for the default brand and
 * for brand 1 by its id (the member's first brand: pages whose address names it select it).
 */
export function shellRoutes(
  dashboard: Record<string, unknown> = {},
  check: Record<string, unknown> = {},
): Record<string, MockAnswer> {
  return {
    'GET dashboard': dashboardBody(dashboard),
    'GET dashboard/1': dashboardBody(dashboard),
    'GET users': loginCheckBody(check),
    'GET users/check-brand/1': loginCheckBody(check),
  };
}
