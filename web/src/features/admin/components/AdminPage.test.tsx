import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render-route';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
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
const WAITING = {
  accountId: 'acc2',
  name: 'Mia Oat',
  email: 'mia@oat.co',
  since: '2026-11-23T08:00:00+00:00',
  plan: { status: 'pending_approval', plan: 'monthly', approval: 'required', validTo: null },
};

function open(path: string, routes: Record<string, MockAnswer> = {}, admin = true) {
  signIn({ ...TEST_SESSION, sessionInfo: { access: admin ? 'admin' : 'user' } });
  const api = mockApi({ ...shellRoutes(), 'GET admin/settings': { globalMessage: '', approveNewMembers: false }, ...routes });
  return { api, ...renderRoute(path) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Admin console', () => {
  it('tells a member who is not an admin that the page is for admins, with no admin menu', async () => {
    open('/admin/users', {}, false);
    expect(await screen.findByText('Only Tandem admins can see this page.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('shows admins the admin menu, with the Pitch Area features to approve', async () => {
    open('/admin/users', { 'GET admin/members': { users: [], nextCursor: null } });
    const menu = await screen.findByRole('navigation', { name: 'Admin' });
    expect(within(menu).getByRole('link', { name: 'Features to approve' })).toHaveAttribute('href', '/admin/features');
    expect(within(menu).getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'UsUsers',
      'ApApprovals',
      'FeFeatures to approve',
      'RpReports',
      'RfRefunds',
      'GcGift credits',
      'IsIssue reports',
      'GmGlobal message',
      'CoCollaborations',
      'AuAudit log',
    ]);
  });

  it('lists reported brands with their reports, reviews one and suspends it after confirming', async () => {
    const oakCase = {
      brand: { id: 7, name: 'Loud Co' },
      status: 'open',
      openedAt: '2026-11-28T09:00:00Z',
      reports: [
        {
          reason: 'spam',
          reasonLabel: 'Spam',
          text: 'Sent me the same message ten times',
          at: '2026-11-28T09:00:00Z',
          reporter: { email: 'amy@oat.co', brandId: 3, brandName: 'Oat & Co' },
        },
      ],
    };
    const { api, user } = open('/admin/reports', {
      'GET admin/reports?status=open': { cases: [oakCase], nextCursor: null },
      'GET admin/reports/7': {
        brand: { id: 7, name: 'Loud Co', category: 'Food', accountId: 'acc7', suspended: false },
        case: oakCase,
        recentRequests: [{ id: 'r1', to: 'Fern Candles', status: 'declined', at: '2026-11-27T10:00:00Z', isPitch: false }],
      },
      'POST admin/reports/7/action': { done: 'suspend' },
    });
    const card = await screen.findByRole('listitem', { name: 'Loud Co' });
    expect(within(card).getByText('Spam')).toBeInTheDocument();
    expect(within(card).getByText('Sent me the same message ten times')).toBeInTheDocument();
    expect(within(card).getByText(/amy@oat\.co \(Oat & Co\)/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Review Loud Co' }));
    expect(await within(card).findByText('Declined')).toBeInTheDocument();
    expect(within(card).getByText(/to Fern Candles/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Suspend Loud Co' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Suspend Loud Co?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Brand suspended')).toBeInTheDocument();
    expect(api.calls('POST admin/reports/7/action')[0]?.body).toEqual({ action: 'suspend' });
  });

  it('warns a reported brand only with a text, and sends it', async () => {
    const loud = { brand: { id: 7, name: 'Loud Co' }, status: 'open', openedAt: '2026-11-28T09:00:00Z', reports: [] };
    const { api, user } = open('/admin/reports', {
      'GET admin/reports?status=open': { cases: [loud], nextCursor: null },
      'GET admin/reports/7': {
        brand: { id: 7, name: 'Loud Co', category: '', accountId: 'acc7', suspended: false },
        case: loud,
        recentRequests: [],
      },
      'POST admin/reports/7/action': { done: 'warn' },
    });
    await user.click(await screen.findByRole('button', { name: 'Review Loud Co' }));
    await user.click(await screen.findByRole('button', { name: 'Warn Loud Co' }));
    const send = screen.getByRole('button', { name: 'Send warning' });
    expect(send).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Warning to the owner of Loud Co/ }), 'Please stop.');
    await user.click(send);
    expect(await screen.findByText('Warning sent to the owner')).toBeInTheDocument();
    expect(api.calls('POST admin/reports/7/action')[0]?.body).toEqual({ action: 'warn', text: 'Please stop.' });
  });

  it('lists suspended brands and lifts a suspension', async () => {
    const held = { brand: { id: 9, name: 'Gone Co' }, status: 'suspended', openedAt: '2026-11-28T09:00:00Z', reports: [] };
    const { api, user } = open('/admin/reports?status=suspended', {
      'GET admin/reports?status=suspended': { cases: [held], nextCursor: null },
      'GET admin/reports/9': {
        brand: { id: 9, name: 'Gone Co', category: '', accountId: 'acc9', suspended: true },
        case: held,
        recentRequests: [],
      },
      'POST admin/reports/9/action': { done: 'lift' },
    });
    expect(await screen.findByRole('button', { name: 'Suspended brands', pressed: true })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Review Gone Co' }));
    expect(await screen.findByRole('button', { name: 'Lift suspension of Gone Co' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Dismiss/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Lift suspension of Gone Co' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Lift suspension' }));
    expect(await screen.findByText('Suspension lifted')).toBeInTheDocument();
    expect(api.calls('POST admin/reports/9/action')).toHaveLength(1);
  });

  it('searches users on the server and pages with the cursor', async () => {
    const { api, user } = open('/admin/users', {
      'GET admin/members': { users: [MIA], nextCursor: null },
      'GET admin/members?q=zed': { users: [ZED], nextCursor: 'c1' },
      'GET admin/members?q=zed&cursor=c1': { users: [], nextCursor: null },
    });
    expect(await screen.findByText('mia@oat.co')).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zed');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('zed@zed.co')).toBeInTheDocument();
    expect(screen.queryByText('mia@oat.co')).not.toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: withEmail('zed@zed.co') })).getByText('Active')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => {
      expect(api.calls('GET admin/members?q=zed&cursor=c1')).toHaveLength(1);
    });
  });

  it('says what a member without a paid plan holds: gifted credits, or a plan granted by Tandem', async () => {
    const gifted = { ...MIA, id: 'u4', email: 'gift@oat.co', accountId: 'acc4', plan: { ...PLAN_NONE, status: 'gifted' } };
    const granted = {
      ...MIA,
      id: 'u5',
      email: 'granted@oat.co',
      accountId: 'acc5',
      plan: { status: 'active', plan: 'granted', source: 'tandem', approval: null, validTo: '2027-02-26T00:00:00Z' },
      canRequireApproval: false,
      canGrantTrial: false,
    };
    open('/admin/users', { 'GET admin/members': { users: [gifted, granted, MIA], nextCursor: null } });
    const giftRow = within(await screen.findByRole('row', { name: withEmail('gift@oat.co') }));
    expect(giftRow.getByText('Gifted credits only')).toBeInTheDocument();
    expect(giftRow.queryByText('No plan')).not.toBeInTheDocument();
    // gifted credits are not a plan: the member's next plan can still wait for approval
    expect(giftRow.getByRole('button', { name: 'Require approval' })).toBeInTheDocument();
    const grantedRow = within(screen.getByRole('row', { name: withEmail('granted@oat.co') }));
    expect(grantedRow.getByText('Active')).toBeInTheDocument();
    expect(grantedRow.getByText('Granted by Tandem')).toBeInTheDocument();
    expect(grantedRow.queryByRole('button', { name: 'Require approval' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: withEmail('mia@oat.co') })).getByText('No plan')).toBeInTheDocument();
  });

  it('requires approval of a member without a plan', async () => {
    const { api, user } = open('/admin/users', {
      'GET admin/members': { users: [MIA, ZED], nextCursor: null },
      'POST admin/accounts/acc2/require-approval': { plan: { ...PLAN_NONE, approval: 'required' } },
    });
    const row = within(await screen.findByRole('row', { name: withEmail('mia@oat.co') }));
    expect(within(screen.getByRole('row', { name: withEmail('zed@zed.co') })).queryByRole('button', { name: 'Require approval' })).toBeNull();
    await user.click(row.getByRole('button', { name: 'Require approval' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Require approval' }));
    expect(await screen.findByText("mia@oat.co's next plan waits for approval.")).toBeInTheDocument();
    expect(api.calls('POST admin/accounts/acc2/require-approval')).toHaveLength(1);
  });

  it('approves a waiting subscription after confirming, and says how many held requests went out', async () => {
    const { api, user } = open('/admin/approvals', {
      'GET admin/approvals': { accounts: [WAITING], nextCursor: null },
      'POST admin/approvals/acc2/approve': { approved: true, released: 2, plan: { ...WAITING.plan, status: 'active' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Approve mia@oat.co' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Approve this subscription?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('mia@oat.co was emailed; 2 held requests were sent.')).toBeInTheDocument();
    expect(api.calls('POST admin/approvals/acc2/approve')).toHaveLength(1);
  });

  it('refuses only with a reason, and sends the reason', async () => {
    const { api, user } = open('/admin/approvals', {
      'GET admin/approvals': { accounts: [WAITING], nextCursor: null },
      'POST admin/approvals/acc2/refuse': { refused: true, cancelledRequests: 1, plan: PLAN_NONE },
    });
    await user.click(await screen.findByRole('button', { name: 'Refuse mia@oat.co' }));
    await user.click(screen.getByRole('button', { name: 'Refuse and refund' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please give a reason');
    expect(api.calls('POST admin/approvals/acc2/refuse')).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: 'Reason (emailed to the member)' }), 'We could not verify your brand.');
    await user.click(screen.getByRole('button', { name: 'Refuse and refund' }));
    expect(await screen.findByText(/1 held request was cancelled/)).toBeInTheDocument();
    expect(api.calls('POST admin/approvals/acc2/refuse')[0]?.body).toEqual({ reason: 'We could not verify your brand.' });
  });

  it('turns the approval of new members on', async () => {
    const { api, user } = open('/admin/approvals', {
      'GET admin/approvals': { accounts: [], nextCursor: null },
      'PUT admin/settings': { globalMessage: '', approveNewMembers: true },
    });
    expect(await screen.findByText('No subscription is waiting for approval.')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /sign up from now on waits for approval/ }));
    await vi.waitFor(() => {
      expect(api.calls('PUT admin/settings')[0]?.body).toEqual({ approveNewMembers: true });
    });
  });

  it('shows why a payment older than 30 days cannot be refunded, and does not offer it', async () => {
    open('/admin/refunds?account=acc3&email=zed%40zed.co', {
      'GET admin/accounts/acc3/refund': {
        payment: { id: 'in_1', kind: 'main', amount: 4900, currency: 'gbp', paidAt: '2026-10-01T10:00:00Z', refundedAmount: 0, withinGuarantee: false },
        message: 'The latest payment was made more than 30 days ago: the money-back guarantee has ended.',
        plan: ZED.plan,
      },
    });
    expect(await screen.findByText(/money-back guarantee has ended/)).toBeInTheDocument();
    expect(screen.getByText('£49')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refund and end the plan' })).toBeDisabled();
  });

  it('refunds a payment within 30 days after confirming', async () => {
    const { api, user } = open('/admin/refunds?account=acc3&email=zed%40zed.co', {
      'GET admin/accounts/acc3/refund': {
        payment: { id: 'in_1', kind: 'main', amount: 4900, currency: 'gbp', paidAt: '2026-11-20T10:00:00Z', refundedAmount: 0, withinGuarantee: true },
        message: null,
        plan: ZED.plan,
      },
      'POST admin/accounts/acc3/refund': {
        refund: { payment: 'in_1', amount: 4900, refund: 're_1', cancelled: 'sub_1' },
        plan: PLAN_NONE,
        credits: { available: 0, total: 0 },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Refund and end the plan' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText(/refunded to zed@zed.co; the plan has ended/)).toBeInTheDocument();
    expect(api.calls('POST admin/accounts/acc3/refund')).toHaveLength(1);
  });

  it('gifts credits and shows the server’s field errors', async () => {
    let first = true;
    const { api, user } = open('/admin/credits?email=mia%40oat.co', {
      'POST admin/credits/grant': () => {
        if (first) {
          first = false;
          return jsonResponse({ error: 'No member has this email', errors: { email: 'No member has this email' } }, 400);
        }
        return { credits: { available: 5, total: 5 } };
      },
    });
    const email = await screen.findByRole('textbox', { name: 'Member email' });
    expect(email).toHaveValue('mia@oat.co');
    await user.click(screen.getByRole('button', { name: 'Gift credits' }));
    expect(await screen.findAllByText('No member has this email')).not.toHaveLength(0);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Gift credits' }));
    expect(await screen.findByText('3 credits given to mia@oat.co, valid 30 days. They now have 5 available.')).toBeInTheDocument();
    expect(api.calls('POST admin/credits/grant')[1]?.body).toEqual({ email: 'mia@oat.co', amount: 3, kind: 'gifted', days: 30 });
  });

  it('saves and removes the global message', async () => {
    const { api, user } = open('/admin/message', {
      'GET admin/settings': { globalMessage: 'Old news', approveNewMembers: false },
      'PUT admin/settings': ({ body }) => ({ globalMessage: (body as { globalMessage: string }).globalMessage, approveNewMembers: false }),
    });
    const box = await screen.findByRole('textbox', { name: 'Message shown in the top bar' });
    expect(box).toHaveValue('Old news');
    await user.clear(box);
    await user.type(box, 'Down for maintenance at 22:00');
    await user.click(screen.getByRole('button', { name: 'Save message' }));
    expect(await screen.findByText(/Members see it in the top bar/)).toBeInTheDocument();
    expect(api.calls('PUT admin/settings')[0]?.body).toEqual({ globalMessage: 'Down for maintenance at 22:00' });
    await user.click(screen.getByRole('button', { name: 'Remove message' }));
    await vi.waitFor(() => {
      expect(api.calls('PUT admin/settings')[1]?.body).toEqual({ globalMessage: '' });
    });
  });

  it('lists the audit log and the issue reports, newest first', async () => {
    const { user } = open('/admin/audit', {
      'GET admin/audit': {
        entries: [
          { id: 'e2', at: '2026-11-23T09:00:00Z', actor: { id: 'u1', email: 'admin@tandem.local' }, action: 'approval.approve', target: 'acc2', details: { released: 1 } },
          { id: 'e1', at: '2026-11-23T08:00:00Z', actor: { id: 'u1', email: 'admin@tandem.local' }, action: 'credits.grant', target: 'mia@oat.co', details: { amount: 3 } },
          { id: 'e0', at: '2026-11-23T07:30:00Z', actor: { id: 'u1', email: 'admin@tandem.local' }, action: 'grant.trial', target: 'acc3', details: {} },
          { id: 'e9', at: '2026-11-23T07:00:00Z', actor: { id: 'u1', email: 'admin@tandem.local' }, action: 'plan.newThing', target: 'acc3', details: {} },
        ],
        nextCursor: null,
      },
      'GET admin/issue-reports': {
        reports: [{ id: 'r1', at: '2026-11-23T07:00:00Z', user: { id: 'u2', email: 'mia@oat.co' }, description: 'The matches page froze', path: '/matches' }],
        nextCursor: null,
      },
    });
    const rows = await screen.findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Approved subscription');
    expect(rows[1]).toHaveTextContent('released: 1');
    expect(rows[2]).toHaveTextContent('Gifted credits');
    expect(rows[3]).toHaveTextContent('Granted free trial');
    expect(rows[3]).not.toHaveTextContent('grant.trial');
    expect(rows[4]).toHaveTextContent('Plan new thing');
    await user.click(screen.getByRole('link', { name: 'Issue reports' }));
    expect(await screen.findByText('The matches page froze')).toBeInTheDocument();
    expect(screen.getByText('/matches')).toBeInTheDocument();
  });

  it('names the member and the amount in the audit log, with a link, and no raw ids', async () => {
    open('/admin/audit', {
      'GET admin/audit': {
        entries: [
          {
            id: 'e3',
            at: '2026-11-23T10:00:00Z',
            actor: { id: 'u1', email: 'admin@tandem.local' },
            action: 'refund.issue',
            target: 'cbb5f777aa',
            details: { payment: 'in_CtBUN1', amount: 4900, refund: 're_1', cancelled: true },
            subject: { label: 'Mia Member (mia@oat.co)', href: '/admin/users?q=mia%40oat.co' },
            facts: ['£49 refunded', 'Plan cancelled'],
          },
        ],
        nextCursor: null,
      },
    });
    const [, first] = await screen.findAllByRole('row');
    if (!first) throw new Error('one entry expected');
    const row = within(first);
    expect(row.getByRole('link', { name: 'Mia Member (mia@oat.co)' })).toHaveAttribute('href', '/admin/users?q=mia%40oat.co');
    expect(row.getByText('£49 refunded · Plan cancelled')).toBeInTheDocument();
    expect(row.queryByText(/cbb5f777|in_CtBUN/)).not.toBeInTheDocument();
  });
});

describe('Admin collaborations', () => {
  it('shows collaborations by state and this month’s count', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
    mockApi({
      ...shellRoutes(),
      'GET admin/collaborations': {
        byStatus: { proposed: 4, agreed: 2, 'results-in': 1, declined: 1, cancelled: 0 },
        thisMonth: 3,
        byMonth: [{ month: '202703', proposed: 3 }],
      },
    });
    renderRoute('/admin/collaborations');
    expect(await screen.findByText('proposed this month.', { exact: false })).toHaveTextContent('3 proposed this month.');
    expect(screen.getByLabelText('Collaborations by state')).toHaveTextContent('Proposed (waiting for an answer)4');
    expect(screen.getByRole('rowheader', { name: '2027-03' })).toBeInTheDocument();
  });
});
