import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, type MockRequest } from '@/testing/api-mock';
import { jsonResponse } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { api, ApiError, SessionEndedError } from './api';
import { hasSessionEndedNotice, setAppNavigator } from './force-logout';
import { getGlobalMessage, getSession, setImpersonatedUser } from './session';
import { getToasts } from './toast';

/** Answers 401 to the old token and 200 to the refreshed one. */
function tokenGuarded(body: unknown) {
  return ({ headers }: MockRequest) =>
    headers.get('Authorization') === 'Bearer access-2'
      ? jsonResponse(body)
      : jsonResponse({ error: 'Token expired' }, 401);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

afterEach(() => {
  setAppNavigator(null);
});

function captureNavigation(currentPath = '/matches/saved?x=1') {
  const go = vi.fn<(to: string) => void>();
  setAppNavigator({ currentPath: () => currentPath, go });
  return go;
}

describe('401: one shared token refresh', () => {
  it('refreshes once for requests failing together, then retries each with the new token', async () => {
    signIn();
    const refreshAnswer = deferred<Response>();
    const mock = mockApi({
      'GET dashboard': tokenGuarded({ menuCounts: {} }),
      'GET users': tokenGuarded({ id: 'u1' }),
      'POST users/refresh-token': () => refreshAnswer.promise,
    });

    const both = Promise.all([api.get('dashboard'), api.get('users')]);
    await vi.waitFor(() => {
      expect(mock.calls('POST users/refresh-token')).toHaveLength(1);
    });
    refreshAnswer.resolve(jsonResponse({ access_token: 'access-2', refresh_token: 'refresh-2' }));

    await expect(both).resolves.toEqual([{ menuCounts: {} }, { id: 'u1' }]);
    expect(mock.calls('POST users/refresh-token')).toHaveLength(1);
    expect(mock.calls('GET dashboard').map((call) => call.headers.get('Authorization'))).toEqual([
      'Bearer access-1',
      'Bearer access-2',
    ]);
    expect(mock.calls('GET users')).toHaveLength(2);
    expect(getSession()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('sends the refresh token, uid, initials and name without a bearer token', async () => {
    signIn();
    const mock = mockApi({
      'GET dashboard': tokenGuarded({}),
      'POST users/refresh-token': { access_token: 'access-2', refresh_token: 'refresh-2' },
    });
    await api.get('dashboard');
    const [refresh] = mock.calls('POST users/refresh-token');
    expect(refresh?.body).toEqual({
      refreshToken: TEST_SESSION.refreshToken,
      uid: TEST_SESSION.uid,
      initials: TEST_SESSION.initials,
      name: TEST_SESSION.name,
    });
    expect(refresh?.headers.has('Authorization')).toBe(false);
  });

  it('signs out to /login/?redirect=<current path> when the refresh is refused', async () => {
    signIn();
    const go = captureNavigation('/matches/saved?x=1');
    const mock = mockApi({
      'GET dashboard': tokenGuarded({}),
      'GET users': tokenGuarded({}),
      'POST users/refresh-token': jsonResponse({ error: 'Refresh token reused' }, 401),
    });

    const results = await Promise.allSettled([api.get('dashboard'), api.get('users')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SessionEndedError);
    }
    expect(mock.calls('POST users/refresh-token')).toHaveLength(1);
    expect(getSession()).toBeNull();
    expect(go).toHaveBeenCalledTimes(1);
    expect(go).toHaveBeenCalledWith('/login/?redirect=/matches/saved%3Fx%3D1');
    expect(hasSessionEndedNotice()).toBe(true);
  });

  it('raises the original error when the retry fails too', async () => {
    signIn();
    let calls = 0;
    mockApi({
      'GET dashboard': () => {
        calls += 1;
        return jsonResponse({ error: calls === 1 ? 'Token expired' : 'Still not allowed' }, 401);
      },
      'POST users/refresh-token': { access_token: 'access-2', refresh_token: 'refresh-2' },
    });
    const error = await api.get('dashboard').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Token expired' });
    expect(getSession()?.accessToken).toBe('access-2');
  });

  it('keeps the session when the refresh fails for network reasons', async () => {
    signIn();
    const go = captureNavigation();
    const fetchMock = mockApi({ 'GET dashboard': tokenGuarded({}) }).fetchMock;
    const realImpl = fetchMock.getMockImplementation();
    fetchMock.mockImplementation((input, init) =>
      (typeof input === 'string' ? input : '').endsWith('users/refresh-token')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : (realImpl?.(input, init) ?? Promise.reject(new Error('no mock'))),
    );
    await expect(api.get('dashboard')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).not.toBeNull();
    expect(go).not.toHaveBeenCalled();
  });

  it('never refreshes for calls made without a session (a wrong password is just an error)', async () => {
    const mock = mockApi({
      'POST users/login': jsonResponse({ error: 'Wrong email or password' }, 401),
    });
    await expect(api.post('users/login', {}, { auth: false })).rejects.toMatchObject({
      status: 401,
      message: 'Wrong email or password',
    });
    expect(mock.calls('POST users/refresh-token')).toHaveLength(0);
  });

  it('retries without refreshing when the token changed while the call was out', async () => {
    signIn();
    const answer = deferred<Response>();
    const mock = mockApi({
      'GET dashboard': ({ headers }) =>
        headers.get('Authorization') === 'Bearer access-1' ? answer.promise : jsonResponse({ ok: 1 }),
    });
    const pending = api.get('dashboard');
    await vi.waitFor(() => {
      expect(mock.calls('GET dashboard')).toHaveLength(1);
    });
    signIn({ ...TEST_SESSION, accessToken: 'access-9' });
    answer.resolve(jsonResponse({ error: 'expired' }, 401));
    await expect(pending).resolves.toEqual({ ok: 1 });
    expect(mock.calls('POST users/refresh-token')).toHaveLength(0);
  });
});

describe('403: forced sign-out only when the API says the session ended', () => {
  it("goes to the response's redirect", async () => {
    signIn();
    const go = captureNavigation();
    mockApi({ 'GET dashboard': jsonResponse({ error: 'Account suspended', code: 'session_ended', redirect: '/maintenance' }, 403) });
    await expect(api.get('dashboard')).rejects.toBeInstanceOf(SessionEndedError);
    expect(getSession()).toBeNull();
    expect(go).toHaveBeenCalledWith('/maintenance');
  });

  it('goes to /login/?redirect=<current path> without one (and ignores off-site redirects)', async () => {
    signIn();
    const go = captureNavigation('/pitch/new');
    mockApi({ 'GET dashboard': jsonResponse({ error: 'Forbidden', code: 'session_ended', redirect: 'https://evil.example' }, 403) });
    await expect(api.get('dashboard')).rejects.toMatchObject({ status: 403 });
    expect(go).toHaveBeenCalledWith('/login/?redirect=/pitch/new');
  });

  it('keeps the member signed in on any other 403 (a suspended brand sending): an ordinary error', async () => {
    signIn();
    const go = captureNavigation('/brand/2');
    mockApi({ 'POST requests': jsonResponse({ error: 'Your brand is suspended, so it can\'t send requests or pitches.' }, 403) });
    const failure = api.post('requests', { toBrandId: 2, message: 'Hi' });
    await expect(failure).rejects.toThrow('Your brand is suspended');
    await expect(failure).rejects.not.toBeInstanceOf(SessionEndedError);
    expect(getSession()).not.toBeNull();
    expect(go).not.toHaveBeenCalled();
  });
});

describe('response side channels', () => {
  it('shows a globalMessage in the top bar', async () => {
    mockApi({ 'GET dashboard': { globalMessage: 'Maintenance tonight at 10pm' } });
    await api.get('dashboard');
    expect(getGlobalMessage()).toBe('Maintenance tonight at 10pm');
  });

  it('forwards an analytics event', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    mockApi({ 'POST x': { analytics: { name: 'request_sent', properties: { brand: 2 } } } });
    await api.post('x');
    expect(debug).toHaveBeenCalledWith('[analytics]', 'request_sent', { brand: 2 });
  });
});

describe('failures', () => {
  it('are not toasted by the client: a write tells its own (lib/mutations.ts)', async () => {
    mockApi({ 'GET products': jsonResponse({ error: 'Nope' }, 500) });
    await expect(api.get('products')).rejects.toThrow('Nope');
    expect(getToasts()).toEqual([]);
  });
});

describe('developer impersonation header', () => {
  it('is sent for admins with a stored value, never for other users', async () => {
    const mock = mockApi({ 'GET dashboard': {} });
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
    setImpersonatedUser('ben@brand.co');
    await api.get('dashboard');
    expect(mock.requests.at(-1)?.headers.get('X-Impersonate-User')).toBe('ben@brand.co');

    signIn({ ...TEST_SESSION, sessionInfo: { access: 'member' } });
    await api.get('dashboard');
    expect(mock.requests.at(-1)?.headers.has('X-Impersonate-User')).toBe(false);
  });
});
