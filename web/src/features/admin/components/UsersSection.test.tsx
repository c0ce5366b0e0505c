import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';

/** A row naming `email`: the test DOM's accessible name puts a space at each <wbr> of an email (Chromium's does not). */
const withEmail = (email: string) => (name: string) => name.replace(/\s+/g, '').includes(email);


const PLAN_NONE = { status: 'none', plan: null, approval: null, validTo: null };
const MIA = {
  id: 'u2',
  email: 'mia@oat.co',
  name: 'Mia Oat',
  access: 'member',
  accountId: 'acc2',
  plan: PLAN_NONE,
  canRequireApproval: true,
  canGrantTrial: true,
};
const ZED = {
  id: 'u3',
  email: 'zed@zed.co',
  name: 'Zed',
  access: 'member',
  accountId: 'acc3',
  plan: { status: 'active', plan: 'monthly', approval: null, validTo: null },
  canRequireApproval: false,
  canGrantTrial: false,
};
// as the API answers a trial: no validTo in Users' plan, the end in the credits info's plan
const TRIALLING = { status: 'trialling', plan: 'trial', source: 'tandem', approval: null, validTo: null };
const TRIAL_CREDITS = { available: 3, total: 3, plan: { state: 'trialling', trialEndsOn: '2026-12-16T12:00:00+00:00' } };

function users(routes: Record<string, MockAnswer>) {
  signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
  const api = mockApi({ ...shellRoutes(), 'GET admin/members': { users: [MIA, ZED], nextCursor: null }, ...routes });
  return { api, ...renderRoute('/admin/users') };
}

describe('Admin Users: Grant free trial', () => {
  it('grants a member without a plan a free trial after confirming, and says what they got', async () => {
    const { api, user } = users({
      'POST admin/accounts/acc2/grant': { plan: TRIALLING, credits: TRIAL_CREDITS },
    });
    const row = within(await screen.findByRole('row', { name: withEmail('mia@oat.co') }));
    // a member with a plan in force is offered none
    expect(within(screen.getByRole('row', { name: withEmail('zed@zed.co') })).queryByRole('button', { name: 'Grant free trial' })).toBeNull();

    await user.click(row.getByRole('button', { name: 'Grant free trial' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Grant a free trial?' }));
    await user.click(dialog.getByRole('button', { name: 'Grant free trial' }));
    expect(await screen.findByText('Free trial granted')).toBeInTheDocument();
    expect(screen.getByText('mia@oat.co has 3 credits to use until 16 Dec 26.')).toBeInTheDocument();
    expect(api.calls('POST admin/accounts/acc2/grant').map((call) => call.body)).toEqual([{ kind: 'trial' }]);
  });

  it('offers it exactly where the server says the member may have the free trial', async () => {
    // no plan in force either, but the server knows the trial was had already (or the account
    // is feature-only): the screen does not guess from the plan's status or the user type
    const hadTrial = { ...MIA, id: 'u7', email: 'had@oat.co', accountId: 'acc7', canGrantTrial: false };
    const featureOnly = { ...MIA, id: 'u9', email: 'feat@oat.co', accountId: 'acc9', access: 'feature', canGrantTrial: false };
    const team = { ...MIA, id: 'u6', email: 'ada@tandem.co', accountId: 'acc6', access: 'admin', plan: { ...PLAN_NONE, status: 'gifted' } };
    users({ 'GET admin/members': { users: [MIA, hadTrial, featureOnly, team], nextCursor: null } });
    for (const email of ['mia@oat.co', 'ada@tandem.co']) {
      const row = within(await screen.findByRole('row', { name: withEmail(email) }));
      expect(row.getByRole('button', { name: 'Grant free trial' })).toBeInTheDocument();
    }
    for (const email of ['had@oat.co', 'feat@oat.co']) {
      expect(within(screen.getByRole('row', { name: withEmail(email) })).queryByRole('button', { name: 'Grant free trial' })).toBeNull();
    }
  });

  it("says why when the member already had their trial, and grants nothing on Cancel", async () => {
    const { api, user } = users({
      'POST admin/accounts/acc2/grant': jsonResponse({ error: 'This member has already had their free trial.' }, 409),
    });
    const row = within(await screen.findByRole('row', { name: withEmail('mia@oat.co') }));
    await user.click(row.getByRole('button', { name: 'Grant free trial' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('POST admin/accounts/acc2/grant')).toHaveLength(0);

    await user.click(row.getByRole('button', { name: 'Grant free trial' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Grant free trial' }));
    expect(await screen.findByText('This member has already had their free trial.')).toBeInTheDocument();
    expect(screen.getByText('No trial granted')).toBeInTheDocument();
  });
});

describe('Admin Users: Require approval', () => {
  it('offers it exactly where the server says the next plan can wait for approval', async () => {
    // a feature-only account has no plan either, but it buys features: the server says no
    const featureOnly = { ...MIA, id: 'u9', email: 'feat@oat.co', accountId: 'acc9', access: 'feature', canRequireApproval: false };
    const asked = { ...MIA, id: 'u8', email: 'asked@oat.co', accountId: 'acc8', plan: { ...PLAN_NONE, approval: 'required' }, canRequireApproval: false };
    users({ 'GET admin/members': { users: [MIA, featureOnly, asked], nextCursor: null } });
    const mia = within(await screen.findByRole('row', { name: withEmail('mia@oat.co') }));
    expect(mia.getByRole('button', { name: 'Require approval' })).toBeInTheDocument();
    for (const email of ['feat@oat.co', 'asked@oat.co']) {
      expect(within(screen.getByRole('row', { name: withEmail(email) })).queryByRole('button', { name: 'Require approval' })).toBeNull();
    }
  });
});

describe('Admin Users on a phone', () => {
  it('lets an email wrap only at its @ and dots, never mid-word (issue 39: it broke letter by letter at 375 px)', async () => {
    users({});
    const row = await screen.findByRole('row', { name: withEmail('mia@oat.co') });
    const email = row.querySelector('.admin__primary');
    expect(email?.innerHTML).toBe('mia<wbr>@oat.<wbr>co');
    expect(email).toHaveTextContent('mia@oat.co');
  });
});
