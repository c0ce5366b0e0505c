import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FERN } from '../test-fixtures';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { CollabShare } from '../api/share';
import { pinToday } from '@/testing/clock';

const CONNECTION = { id: 'r1', brand: FERN, contact: null, connectedAt: '2026-11-03T10:00:00Z', isNew: false };
const SUMMARY = 'A winter bundle of our oat drink and their candles, sold on both shops.';
const IDEAS = {
  ideas: [
    {
      slug: 'product-bundle',
      title: 'Product bundle',
      image: '/collab/product-bundle.svg',
      effort: 'some',
      benefits: [],
      content: 'x',
      examples: [],
      example_title: 'x',
      template_info: 'x',
    },
  ],
  benefits: {},
  efforts: { minimal: 'Minimal effort', some: 'Some effort', maximum: 'Maximum effort' },
  total: 26,
};

function open(share: CollabShare, routes: Record<string, MockAnswer> = {}) {
  signIn();
  const api = mockApi({
    ...shellRoutes(),
    'GET connections/7': CONNECTION,
    'GET connections/7/share': { share },
    'GET collab': IDEAS,
    ...routes,
  });
  return { api, ...renderRoute('/connections/1/7') };
}

const panel = async () => within(await screen.findByRole('region', { name: 'Member collabs' }));

describe('ShareCollabPanel (on a connection)', () => {
  pinToday();

  it('proposes sharing with a checked summary and the idea, then waits for the other brand', async () => {
    const { user, api } = open(
      { state: 'none' },
      {
        'POST connections/7/share': {
          share: { state: 'waiting-for-them', summary: SUMMARY, idea: { slug: 'product-bundle', title: 'Product bundle' }, proposedByYou: true, proposedAt: 5 },
        },
      },
    );
    const region = await panel();
    await user.click(await region.findByRole('button', { name: 'Share this collab' }));
    const summary = region.getByRole('textbox', { name: 'What did you do together?' });
    await user.type(summary, 'Too short');
    await user.click(region.getByRole('button', { name: 'Ask Wild Fern Candles to agree' }));
    expect(region.getByText('Write at least 20 characters: what you did and how it went.')).toBeInTheDocument();
    expect(api.calls('POST connections/7/share')).toHaveLength(0);

    await user.clear(summary);
    await user.type(summary, SUMMARY);
    await user.selectOptions(region.getByRole('combobox', { name: /Which collab idea was it/ }), 'Product bundle');
    await user.click(region.getByRole('button', { name: 'Ask Wild Fern Candles to agree' }));
    expect(await region.findByText('Waiting for Wild Fern Candles to agree to share this collab.')).toBeInTheDocument();
    expect(region.getByText(SUMMARY)).toBeInTheDocument();
    expect(region.getByText('Collab idea: Product bundle')).toBeInTheDocument();
    expect(api.calls('POST connections/7/share')[0]?.body).toEqual({ summary: SUMMARY, idea: 'product-bundle' });
    expect(api.calls('POST connections/7/share')[0]?.headers.get('X-Brand-Id')).toBe('1');
  });

  it("agrees to the other brand's proposal as it was read, and it is shared", async () => {
    const { user, api } = open(
      { state: 'waiting-for-you', summary: SUMMARY, idea: null, proposedByYou: false, proposedAt: 1764000000000 },
      {
        'POST connections/7/share/agree': {
          share: { state: 'shared', summary: SUMMARY, idea: null, proposedByYou: false, proposedAt: 1764000000000, sharedAt: '2026-11-20T10:00:00Z' },
        },
      },
    );
    const region = await panel();
    expect(await region.findByText(/Wild Fern Candles would like to show this collab to other members/)).toBeInTheDocument();
    await user.click(region.getByRole('button', { name: 'Agree and share' }));
    expect(await region.findByText(/Shared under/)).toHaveTextContent('Shared under Member collabs since 20th November.');
    expect(region.getByRole('link', { name: 'Member collabs' })).toHaveAttribute('href', '/inspiration/member-collabs');
    expect(api.calls('POST connections/7/share/agree')[0]?.body).toEqual({ proposedAt: 1764000000000 });
  });

  it('agrees to show a finished collaboration with the figures of its own it ticks, told which the other allows', async () => {
    const proposal: CollabShare = {
      state: 'waiting-for-you',
      summary: SUMMARY,
      idea: null,
      proposedByYou: false,
      proposedAt: 9,
      collaboration: { id: 'c1', title: 'A candlelit supper club' },
      figures: { yours: [], theirs: ['reach', 'revenue'] },
    };
    const { user, api } = open(proposal, {
      'POST connections/7/share/agree': {
        share: { ...proposal, state: 'shared', sharedAt: '2026-11-20T10:00:00Z', figures: { yours: ['reach', 'clicks'], theirs: ['reach', 'revenue'] } },
      },
    });
    const region = await panel();
    expect(await region.findByText('Collaboration: A candlelit supper club')).toBeInTheDocument();
    expect(region.getByText('Wild Fern Candles allows: Reach, Revenue')).toBeInTheDocument();
    expect(region.queryByText(/Your figures allowed/)).not.toBeInTheDocument();
    const figures = within(region.getByRole('group', { name: 'Which of your figures may be shown?' }));
    expect(figures.getByRole('checkbox', { name: 'Revenue' })).not.toBeChecked();
    await user.click(figures.getByRole('checkbox', { name: 'Clicks' }));
    await user.click(figures.getByRole('checkbox', { name: 'Reach' }));
    await user.click(region.getByRole('button', { name: 'Agree and share' }));
    expect(api.calls('POST connections/7/share/agree')[0]?.body).toEqual({ proposedAt: 9, figures: ['reach', 'clicks'] });
    // shared: only what both allowed is shown
    expect(await region.findByText('Figures shown: Reach')).toBeInTheDocument();
  });

  it('takes a shared collab down after confirming', async () => {
    const { user, api } = open(
      { state: 'shared', summary: SUMMARY, idea: null, proposedByYou: true, proposedAt: 1, sharedAt: '2026-11-20T10:00:00Z' },
      { 'DELETE connections/7/share': { share: { state: 'none' } } },
    );
    const region = await panel();
    await user.click(await region.findByRole('button', { name: 'Take it down' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Take this collab down?' }));
    await user.click(dialog.getByRole('button', { name: 'Take it down' }));
    expect(await region.findByRole('button', { name: 'Share this collab' })).toBeInTheDocument();
    expect(api.calls('DELETE connections/7/share')).toHaveLength(1);
  });

  it("shows the server's refusal and the share as it now is", async () => {
    let shareNow: CollabShare = { state: 'waiting-for-you', summary: SUMMARY, idea: null, proposedByYou: false, proposedAt: 1 };
    const { user } = open(shareNow, {
      'GET connections/7/share': () => ({ share: shareNow }),
      'POST connections/7/share/agree': () => {
        shareNow = { ...shareNow, summary: `${SUMMARY} Edited.`, proposedAt: 2 };
        return new Response(
          JSON.stringify({ error: 'The proposal changed while you were reading it: read the new summary and agree again.' }),
          { status: 409 },
        );
      },
    });
    const region = await panel();
    await user.click(await region.findByRole('button', { name: 'Agree and share' }));
    expect(await screen.findByText('The proposal changed while you were reading it: read the new summary and agree again.')).toBeInTheDocument();
    await waitFor(() => {
      expect(region.getByText(`${SUMMARY} Edited.`)).toBeInTheDocument();
    });
  });
});
