import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createResource, resetAllResources, useResource } from './resource';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('createResource', () => {
  it('shares one request per key and keeps the answer', async () => {
    const fetcher = vi.fn((key: string) => Promise.resolve(`data for ${key}`));
    const resource = createResource(fetcher);
    await Promise.all([resource.load('a'), resource.load('a')]);
    await resource.load('a');
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(resource.getState()).toMatchObject({ key: 'a', status: 'success', data: 'data for a' });
    await resource.load('a', { force: true });
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('lets a newer key win over an older answer still in flight', async () => {
    const answers = { a: deferred<string>(), b: deferred<string>() };
    const resource = createResource((key: string) => answers[key as 'a' | 'b'].promise);
    const first = resource.load('a');
    const second = resource.load('b');
    answers.b.resolve('B');
    answers.a.resolve('A');
    await expect(first).resolves.toBeNull();
    await expect(second).resolves.toBe('B');
    expect(resource.getState()).toMatchObject({ key: 'b', data: 'B' });
  });

  it('keeps the previous data while a new key loads, and records errors', async () => {
    const next = deferred<string>();
    const resource = createResource((key: string) => (key === 'a' ? Promise.resolve('A') : next.promise));
    await resource.load('a');
    const loading = resource.load('b');
    expect(resource.getState()).toMatchObject({ key: 'b', status: 'loading', data: 'A' });
    next.reject(new Error('boom'));
    await loading;
    expect(resource.getState()).toMatchObject({ key: 'b', status: 'error', data: 'A' });
    expect(resource.getState().error?.message).toBe('boom');
  });

  it('updates data locally and forgets everything on reset', async () => {
    const resource = createResource(() => Promise.resolve({ showWelcome: true }));
    await resource.load('k');
    resource.update((data) => ({ ...data, showWelcome: false }));
    expect(resource.getState().data).toEqual({ showWelcome: false });
    resetAllResources();
    expect(resource.getState()).toMatchObject({ key: null, status: 'idle', data: null });
  });
});

describe('useResource', () => {
  it('loads for the key, reloads when it changes and after a reset, and idles on null', async () => {
    const fetcher = vi.fn((key: string) => Promise.resolve(key.toUpperCase()));
    const resource = createResource(fetcher);
    const initialProps: { key: string | null } = { key: 'a' };
    const { result, rerender } = renderHook(({ key }: { key: string | null }) => useResource(resource, key), {
      initialProps,
    });
    expect(result.current.status).toBe('loading');
    await vi.waitFor(() => {
      expect(result.current).toMatchObject({ status: 'success', data: 'A' });
    });

    rerender({ key: 'b' });
    expect(result.current).toMatchObject({ status: 'loading', data: 'A' });
    await vi.waitFor(() => {
      expect(result.current.data).toBe('B');
    });

    act(() => {
      resource.reset();
    });
    await vi.waitFor(() => {
      expect(result.current.data).toBe('B');
    });
    expect(fetcher).toHaveBeenCalledTimes(3);

    rerender({ key: null });
    expect(result.current.status).toBe('idle');
  });
});
