import { record } from 'aws-amplify/analytics/kinesis-firehose';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { setAnalyticsSink, trackEvent } from './analytics';
import type * as AmplifySinkModule from './analytics-amplify';
import { createAmplifySink } from './analytics-amplify';
import { getAnalyticsId } from './analytics-id';
import { startAnalytics } from './analytics-start';

const { configure } = vi.hoisted(() => ({ configure: vi.fn() }));
vi.mock('aws-amplify', () => ({ Amplify: { configure } }));
vi.mock('aws-amplify/analytics/kinesis-firehose', () => ({ record: vi.fn() }));
// The real module, watched: a call to createAmplifySink means the lazy loader ran.
vi.mock('./analytics-amplify', async (importOriginal) => {
  const actual = await importOriginal<typeof AmplifySinkModule>();
  return { createAmplifySink: vi.fn(actual.createAmplifySink) };
});

const ANALYTICS = {
  region: 'eu-west-2',
  identityPoolId: 'eu-west-2:0b6f2c1e-7d7a-4c55-9f3e-2a1b3c4d5e6f',
  streamName: 'tandem-prod-analytics',
};

function configCalls(fetchMock: ReturnType<typeof mockApi>['fetchMock']) {
  return fetchMock.mock.calls.filter(([url]) => url === '/config.json');
}

let debug: MockInstance<Console['debug']>;

beforeEach(() => {
  // The development console sink (tests run as development).
  debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startAnalytics', () => {
  it('fetches /config.json without auth headers, revalidating the cached copy', async () => {
    signIn();
    const { fetchMock } = mockApi();
    await startAnalytics();
    const calls = configCalls(fetchMock);
    expect(calls).toHaveLength(1);
    const init = calls[0]?.[1] ?? {};
    expect(init.cache).toBe('no-cache');
    const headers = new Headers(init.headers);
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has('X-Analytics-Id')).toBe(false);
  });

  it('with an analytics block, loads the amplify sink and records events to Firehose', async () => {
    mockApi({ 'GET /config.json': { analytics: ANALYTICS } });
    await startAnalytics();

    expect(createAmplifySink).toHaveBeenCalledExactlyOnceWith(ANALYTICS);
    expect(configure).toHaveBeenCalledExactlyOnceWith({
      Auth: { Cognito: { identityPoolId: ANALYTICS.identityPoolId, allowGuestAccess: true } },
      Analytics: {
        KinesisFirehose: {
          region: 'eu-west-2',
          bufferSize: 1000,
          flushSize: 100,
          flushInterval: 5000,
          resendLimit: 5,
        },
      },
    });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T10:00:00.000Z'));
    trackEvent({ name: 'match_viewed', properties: { matchId: 7 } });

    expect(record).toHaveBeenCalledExactlyOnceWith({
      streamName: 'tandem-prod-analytics',
      data: {
        name: 'match_viewed',
        properties: { matchId: 7 },
        at: '2026-03-01T10:00:00.000Z',
        analyticsId: getAnalyticsId(),
      },
    });
  });

  it('replays events raised before the sink loaded, each with its own time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T09:00:00.000Z'));
    trackEvent({ name: 'first', properties: {} });
    vi.setSystemTime(new Date('2026-03-01T09:00:05.000Z'));
    trackEvent({ name: 'second', properties: { step: 2 } });
    expect(record).not.toHaveBeenCalled();

    mockApi({ 'GET /config.json': { analytics: ANALYTICS } });
    vi.setSystemTime(new Date('2026-03-01T09:01:00.000Z'));
    await startAnalytics();

    expect(vi.mocked(record).mock.calls.map(([input]) => input.data)).toEqual([
      { name: 'first', properties: {}, at: '2026-03-01T09:00:00.000Z', analyticsId: getAnalyticsId() },
      { name: 'second', properties: { step: 2 }, at: '2026-03-01T09:00:05.000Z', analyticsId: getAnalyticsId() },
    ]);
  });

  it('runs once per page', async () => {
    const { fetchMock } = mockApi({ 'GET /config.json': { analytics: ANALYTICS } });
    await Promise.all([startAnalytics(), startAnalytics()]);
    await startAnalytics();
    expect(configCalls(fetchMock)).toHaveLength(1);
    expect(createAmplifySink).toHaveBeenCalledOnce();
  });

  it.each([
    ['a 404 (local development)', jsonResponse({ error: 'Not found' }, 404)],
    ['a body that is not JSON', new Response('<!doctype html><html></html>', { status: 200 })],
    ['no analytics block', jsonResponse({ somethingElse: true })],
    ['an analytics block without a stream', jsonResponse({ analytics: { ...ANALYTICS, streamName: '' } })],
    ['a network error', new TypeError('Failed to fetch')],
  ])('with %s, does not load the sink and keeps events queued', async (_label, answer) => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetchMock = vi.fn<typeof fetch>(() =>
      answer instanceof Response ? Promise.resolve(answer) : Promise.reject(answer),
    );
    vi.stubGlobal('fetch', fetchMock);

    trackEvent({ name: 'kept', properties: {} });
    await expect(startAnalytics()).resolves.toBeUndefined();

    expect(fetchMock).toHaveBeenCalledOnce();
    expect(createAmplifySink).not.toHaveBeenCalled();
    expect(configure).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
    // The development console sink still sees the event, and it stays queued.
    expect(debug).toHaveBeenCalledWith('[analytics]', 'kept', {});
    const sink = vi.fn();
    setAnalyticsSink(sink);
    expect(sink).toHaveBeenCalledExactlyOnceWith({ name: 'kept', properties: {} }, expect.any(Date));
  });

  it('a sink that fails to load is logged, not shown, and the app carries on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    configure.mockImplementationOnce(() => {
      throw new Error('bad config');
    });
    mockApi({ 'GET /config.json': { analytics: ANALYTICS } });
    await expect(startAnalytics()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith('Analytics could not start', expect.any(Error));
    expect(() => {
      trackEvent({ name: 'after', properties: {} });
    }).not.toThrow();
    expect(record).not.toHaveBeenCalled();
  });

  it('a record call that throws is logged and does not reach the caller', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.mocked(record).mockImplementationOnce(() => {
      throw new Error('not configured');
    });
    mockApi({ 'GET /config.json': { analytics: ANALYTICS } });
    await startAnalytics();
    expect(() => {
      trackEvent({ name: 'boom', properties: {} });
    }).not.toThrow();
    expect(warn).toHaveBeenCalledWith('Analytics sink failed', expect.any(Error));
  });
});
