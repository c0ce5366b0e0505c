import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '@/testing/session';
import { jsonResponse } from '@/testing/render-route';
import { api, ApiError, apiUrl, timezoneOffsetHours } from './api';
import { setSelectedBrand } from './session';

const fetchMock = vi.fn<typeof fetch>();

function lastCall(): { url: string; init: RequestInit; headers: Headers } {
  const call = fetchMock.mock.lastCall;
  if (!call) throw new Error('fetch was not called');
  const [url, init = {}] = call;
  const href = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
  return { url: href, init, headers: new Headers(init.headers) };
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({ ok: true })));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('calls under /api/ with credentials and JSON body', async () => {
    await api.post('users/login', { email: 'a@b.co', password: 'x' });
    const { url, init, headers } = lastCall();
    expect(url).toBe('/api/users/login');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends the bearer token when signed in', async () => {
    signIn();
    await api.get('dashboard');
    expect(lastCall().headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('sends no authorization header when signed out', async () => {
    await api.get('dashboard');
    expect(lastCall().headers.has('Authorization')).toBe(false);
  });

  it('sends the timezone offset in hours', async () => {
    await api.get('dashboard');
    expect(lastCall().headers.get('X-Timezone-Offset')).toBe(String(timezoneOffsetHours()));
  });

  it('sends the selected numeric brand, or default', async () => {
    await api.get('dashboard');
    expect(lastCall().headers.get('X-Brand-Id')).toBe('default');
    setSelectedBrand(42);
    await api.get('dashboard');
    expect(lastCall().headers.get('X-Brand-Id')).toBe('42');
    setSelectedBrand('not-a-number');
    await api.get('dashboard');
    expect(lastCall().headers.get('X-Brand-Id')).toBe('default');
  });

  it('sends one stable analytics id kept in localStorage', async () => {
    await api.get('a');
    const first = lastCall().headers.get('X-Analytics-Id');
    await api.get('b');
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(lastCall().headers.get('X-Analytics-Id')).toBe(first);
    expect(window.localStorage.getItem('tandem.analyticsId')).toBe(JSON.stringify(first));
  });

  it('resolves with the parsed body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ count: 3 }));
    await expect(api.get<{ count: number }>('users/webhooks-in-progress')).resolves.toEqual({
      count: 3,
    });
  });

  it('rejects with ApiError carrying status and the body error', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Wrong email or password' }, 401));
    const error = await api.post('users/login', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Wrong email or password' });
  });

  it('falls back to a generic message when the body has no error', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>', { status: 502 }));
    await expect(api.get('x')).rejects.toMatchObject({ status: 502, message: 'Request failed (502)' });
  });

  it('turns a network failure into ApiError status 0', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.get('x')).rejects.toMatchObject({ status: 0 });
  });

  it('joins paths onto the base without doubling slashes', () => {
    expect(apiUrl('/users')).toBe('/api/users');
    expect(apiUrl('users')).toBe('/api/users');
  });
});

describe('timezoneOffsetHours', () => {
  it('is the negated getTimezoneOffset in hours', () => {
    const date = { getTimezoneOffset: () => -330 } as Date;
    expect(timezoneOffsetHours(date)).toBe(5.5);
    expect(timezoneOffsetHours({ getTimezoneOffset: () => 300 } as Date)).toBe(-5);
    expect(Object.is(timezoneOffsetHours({ getTimezoneOffset: () => 0 } as Date), 0)).toBe(true);
  });
});
