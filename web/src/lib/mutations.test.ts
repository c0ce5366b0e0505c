import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { api, ApiError } from './api';
import { setAppNavigator } from './force-logout';
import { createMutationCache, errorToast, type WriteMeta } from './mutations';
import { getToasts } from './toast';

/** Runs one write through a QueryClient with the app's MutationCache; resolves once it settled. */
async function write(meta: WriteMeta | undefined, run: () => Promise<unknown>): Promise<void> {
  const client = new QueryClient({ mutationCache: createMutationCache() });
  const mutation = client.getMutationCache().build(client, { mutationFn: run, meta });
  await mutation.execute(undefined).catch(() => undefined);
}

afterEach(() => {
  setAppNavigator(null);
});

describe('a failed write', () => {
  it("shows an error toast titled by its meta, with the server's message", async () => {
    mockApi({ 'POST checkout': jsonResponse({ error: 'Stripe is unavailable' }, 502) });
    await write(errorToast('loadProducts'), () => api.post('checkout'));
    expect(getToasts()).toMatchObject([{ tone: 'error', title: 'loadProducts', message: 'Stripe is unavailable' }]);
  });

  it('stays quiet without an errorTitle (the form shows it) and on what it shows elsewhere', async () => {
    mockApi({ 'POST x': jsonResponse({ error: 'Nope' }, 400), 'POST y': jsonResponse({ error: 'No credits' }, 402) });
    await write(undefined, () => api.post('x'));
    await write(errorToast('yearlyUpgrade', (error) => error instanceof ApiError && error.status === 402), () => api.post('y'));
    expect(getToasts()).toEqual([]);
  });

  it('stays quiet when the session ended (the member is on the way to sign in)', async () => {
    signIn();
    setAppNavigator({ currentPath: () => '/', go: () => undefined });
    mockApi({ 'POST x': jsonResponse({ error: 'Forbidden', code: 'session_ended' }, 403) });
    await write(errorToast('Not saved'), () => api.post('x'));
    expect(getToasts()).toEqual([]);
  });

  it("shows a write's own words for a failure no server answered", async () => {
    await write(errorToast('generatePaymentLink'), () => Promise.reject(new ApiError(0, "Your browser didn't let us copy the link.")));
    expect(getToasts()).toMatchObject([{ title: 'generatePaymentLink', message: "Your browser didn't let us copy the link." }]);
  });
});
