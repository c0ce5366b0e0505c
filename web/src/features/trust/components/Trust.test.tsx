import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

function open(path: string, routes: Record<string, MockAnswer> = {}) {
  signIn();
  const api = mockApi({ ...shellRoutes(), ...routes });
  return { api, ...renderRoute(path) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const FERN = { id: 12, name: 'Fern Candles', nameVisible: true, category: 'Home', logoUrl: null };

describe('Blocked brands (/account/blocked)', () => {
  it('lists the blocked brands and unblocks one', async () => {
    const { api, user } = open('/account/blocked', {
      'GET users/blocked': { blocked: [FERN] },
      'DELETE brands/12/block': { blocked: false },
    });
    const list = await screen.findByRole('list', { name: 'Blocked brands' });
    expect(within(list).getByText('Fern Candles')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Unblock Fern Candles' }));
    expect(await screen.findByText('Brand unblocked')).toBeInTheDocument();
    expect(api.calls('DELETE brands/12/block')).toHaveLength(1);
  });

  it('says where to block a brand when none is blocked', async () => {
    open('/account/blocked', { 'GET users/blocked': { blocked: [] } });
    expect(await screen.findByText(/You haven't blocked any brand/)).toBeInTheDocument();
  });
});

const PUBLIC_FERN = {
  brand: {
    id: 12,
    name: 'Fern Candles',
    nameVisible: true,
    logoUrl: null,
    website: null,
    description: 'Hand-poured candles.',
    category: 'Home',
    companySize: '',
    audience: { ageBands: [], genders: [], countries: [] },
    values: [],
    collabKinds: [],
    social: {},
    contact: null,
  },
  relation: { saved: false, dismissed: false, requestState: null, requestId: null, waitMessage: null },
  match: null,
  isOwn: false,
};

describe("A brand's page: Report this brand and Block", () => {
  it('reports the brand with a reason and text, and thanks the member in the server’s words', async () => {
    const { api, user } = open('/brand/12', {
      'GET brand/12': PUBLIC_FERN,
      'POST brands/12/report': { message: 'Thanks, our team will look at this' },
    });
    await user.click(await screen.findByRole('button', { name: /^Report this brand\W+Fern Candles$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this brand' });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByText('Please choose a reason')).toBeInTheDocument();
    expect(api.calls('POST brands/12/report')).toHaveLength(0);
    await user.click(within(dialog).getByRole('radio', { name: 'Harassment' }));
    await user.type(within(dialog).getByRole('textbox', { name: /What happened/ }), 'Rude replies');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Thanks, our team will look at this')).toBeInTheDocument();
    expect(api.calls('POST brands/12/report')[0]?.body).toEqual({ reason: 'harassment', text: 'Rude replies' });
  });

  it('refuses a text over 1,000 characters before sending it', async () => {
    const { api, user } = open('/brand/12', { 'GET brand/12': PUBLIC_FERN });
    await user.click(await screen.findByRole('button', { name: /^Report this brand\W+Fern Candles$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this brand' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    const box = within(dialog).getByRole('textbox', { name: /What happened/ });
    await user.click(box);
    await user.paste('x'.repeat(1001));
    expect(within(dialog).getByText('Please keep your report under 1,000 characters')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeDisabled();
    expect(api.calls('POST brands/12/report')).toHaveLength(0);
  });

  it('blocks the brand after confirming and leaves its page', async () => {
    const { api, user } = open('/brand/12', {
      'GET brand/12': PUBLIC_FERN,
      'POST brands/12/block': { blocked: true },
      'GET matches?list=potentials': { matches: [], showingBrandNames: true, runOutstanding: false, runId: null },
      'GET matches?list=saved': { matches: [], showingBrandNames: true, runOutstanding: false, runId: null },
    });
    await user.click(await screen.findByRole('button', { name: 'Block Fern Candles' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Block Fern Candles?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Brand blocked')).toBeInTheDocument();
    expect(api.calls('POST brands/12/block')).toHaveLength(1);
    // the name the member saw goes with it, so Blocked brands can say whom they blocked
    expect(api.calls('POST brands/12/block')[0]?.body).toEqual({ name: 'Fern Candles' });
  });
});

describe('The dashboard of a suspended brand', () => {
  it('tells the owner and lets them reply to the team', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes({ dashboard: { brandId: 1, brandName: 'Oat & Co', suspended: true } }),
      'POST issues/report': { message: 'Issue sent' },
    });
    const { user } = renderRoute('/');
    expect(await screen.findByText('Oat & Co is suspended')).toBeInTheDocument();
    // it can't send, so the dashboard suggests no matches to write to
    expect(screen.queryByText('Find your first partners')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See your matches' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Reply to our team' }), 'We have fixed our profile.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText(/your reply has reached our team/)).toBeInTheDocument();
    expect(api.calls('POST issues/report')[0]?.body).toMatchObject({ description: 'We have fixed our profile.' });
  });
});
