import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { Collaboration, CollabList, CollabSummary } from '../api/collaborations';

const charts: { type: string; labels: unknown }[] = [];
vi.mock('chart.js/auto', () => ({
  default: class {
    static defaults = { animation: true };
    constructor(_canvas: unknown, config: { type: string; data: { labels: unknown } }) {
      charts.push({ type: config.type, labels: config.data.labels });
    }
    destroy = vi.fn();
  },
}));

const FIGURES = { collaborations: 1, withResults: 1, reach: 12000, followers: 340, clicks: 900, orders: 41, revenue: { GBP: 125050 } };

const ITEM: CollabSummary = {
  id: 'c1',
  version: 3,
  phase: 'results-in',
  phaseLabel: 'Results in',
  title: 'A candlelit supper club',
  format: 'events',
  goal: 'reach',
  start: '2027-03-22',
  end: '2027-04-01',
  moment: null,
  partner: { id: 7, name: 'Fern Candles', logoUrl: null },
  proposedByYou: true,
  yourTurn: false,
  checklistDone: 2,
  checklistTotal: 5,
  results: { mine: { reach: 12000, again: true, rating: 5 }, theirs: null, theirsRecorded: false, visibleFrom: '2027-04-16' },
  endedReason: null,
  endedCause: null,
  endedByYou: false,
  createdAt: '2027-03-10T12:00:00Z',
  updatedAt: '2027-03-10T12:00:00Z',
};

function list(items: readonly CollabSummary[], withResults = 1) {
  const byPhase = { proposed: 0, agreed: 0, live: 0, ended: 0, 'results-in': 0, declined: 0, cancelled: 0 };
  for (const item of items) byPhase[item.phase] += 1;
  const totals: CollabList['totals'] = {
      byPhase,
      overall: { ...FIGURES, collaborations: items.length, withResults, again: withResults },
      byPartner: [{ partner: 'Fern Candles', ...FIGURES }],
      byFormat: [{ format: 'events', ...FIGURES }],
      byMonth: [{ month: '2027-03', ...FIGURES }],
  };
  return { items, totals };
}

describe('CollaborationsPage', () => {
  it('shows the collaborations by state with the totals, per partner and per format, and draws the charts', async () => {
    signIn();
    const waiting = { ...ITEM, id: 'c2', phase: 'proposed', phaseLabel: 'Proposed', title: 'Spring giveaway', yourTurn: true } as const;
    mockApi({ ...shellRoutes(), 'GET collaborations': list([ITEM, waiting]) });
    renderRoute('/collaborations');
    expect(await screen.findByRole('heading', { name: 'Results in (1)' })).toBeInTheDocument();
    const proposed = screen.getByRole('list', { name: 'Proposed (1)' });
    expect(within(proposed).getByRole('link', { name: 'Spring giveaway' })).toHaveAttribute('href', '/collaborations/c2');
    expect(within(proposed).getByText('Your turn')).toBeInTheDocument();
    expect(within(proposed).getByText(/With Fern Candles · events · 22nd March/)).toBeInTheDocument();
    expect(screen.getByText('£1,250.50', { selector: 'dd' })).toBeInTheDocument();
    const partners = screen.getByRole('table', { name: 'By partner' });
    expect(within(partners).getByRole('rowheader', { name: 'Fern Candles' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'By format' })).getByRole('rowheader', { name: 'events' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Reach by format' })).toBeInTheDocument();
    await waitFor(() => {
      expect(charts.map((c) => c.type)).toEqual(['line', 'bar']);
    });
    expect(charts[0]?.labels).toEqual(['2027-03']);
    expect(screen.getByRole('link', { name: 'Plan a collaboration' })).toHaveAttribute('href', '/collaborations/new');
    expect(document.title).toBe('Tandem Hub: Collaborations');
  });

  it('draws no chart and loads no chart code before any results are recorded', async () => {
    signIn();
    charts.length = 0;
    mockApi({ ...shellRoutes(), 'GET collaborations': list([{ ...ITEM, phase: 'agreed', phaseLabel: 'Agreed' }], 0) });
    renderRoute('/collaborations');
    expect(await screen.findByRole('heading', { name: 'Agreed (1)' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(charts).toEqual([]);
  });

  it('says how to start when there are none', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET collaborations': list([], 0) });
    renderRoute('/collaborations');
    expect(await screen.findByRole('heading', { name: 'No collaborations yet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});

const DETAIL: Collaboration = {
  ...ITEM,
  phase: 'proposed',
  phaseLabel: 'Proposed',
  proposedByYou: false,
  yourTurn: true,
  results: { mine: null, theirs: null, theirsRecorded: false, visibleFrom: '2027-04-16' },
  bringsMine: 'Candles for every table',
  bringsTheirs: 'Oat drinks and the venue',
  idea: { slug: 'joint-event', title: 'Joint event' },
  brief: 'Event brief',
  checklist: [
    { id: 'i1', text: 'Agree: Venue', owner: 'both', due: '2027-03-15', done: false, doneAt: null, doneByYou: false },
  ],
  changes: [
    { byYou: false, at: '2027-03-10T12:00:00Z', kind: 'proposed', fields: {} },
    { byYou: true, at: '2027-03-10T13:00:00Z', kind: 'changed', fields: { start: ['2027-03-20', '2027-03-22'] } },
  ],
  messages: [{ id: 'm1', byYou: false, author: 'Olly', text: 'Shall we do 40 seats?', at: '2027-03-10T14:00:00Z' }],
  can: { accept: true, change: true, decline: true, cancel: true, message: true, tick: true, addItem: true, recordResults: false },
};

describe('CollaborationPage', () => {
  it('shows the plan, what changed, the checklist and the thread, and accepts the plan as read', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes(),
      'GET collaborations/c1': { collaboration: DETAIL },
      'POST collaborations/c1/accept': { collaboration: { ...DETAIL, phase: 'agreed', phaseLabel: 'Agreed', yourTurn: false } },
      'PUT collaborations/c1/checklist/i1': { collaboration: DETAIL },
    });
    renderRoute('/collaborations/c1');
    expect(await screen.findByRole('heading', { level: 1, name: 'A candlelit supper club' })).toBeInTheDocument();
    expect(document.title).toBe('Tandem Hub: A candlelit supper club');
    expect(screen.getByText('Fern Candles is waiting for your answer: accept the plan, propose changes or decline.')).toBeInTheDocument();
    expect(screen.getByText(/^Start: 20th March.* → 22nd March/)).toBeInTheDocument();
    expect(screen.getByText('Shall we do 40 seats?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Agree: Venue' }));
    expect(api.calls('PUT collaborations/c1/checklist/i1')[0]?.body).toEqual({ done: true });
    await userEvent.click(screen.getByRole('button', { name: 'Accept the plan' }));
    expect(api.calls('POST collaborations/c1/accept')[0]?.body).toEqual({ version: 3 });
    expect(await screen.findByText('Agreed', { selector: '.status-chip' })).toBeInTheDocument();
  });

  it('shows the server’s message beside the field and keeps what was written', async () => {
    signIn();
    const tooLong = 'Please keep your message under 2,000 characters.';
    mockApi({
      ...shellRoutes(),
      'GET collaborations/c1': { collaboration: DETAIL },
      'POST collaborations/c1/messages': new Response(JSON.stringify({ error: tooLong, errors: { text: tooLong } }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
    });
    renderRoute('/collaborations/c1');
    const box = await screen.findByRole('textbox', { name: 'Message to Fern Candles' });
    await userEvent.type(box, 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(tooLong)).toBeInTheDocument();
    expect(box).toHaveAccessibleDescription(expect.stringContaining(tooLong));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveValue('Hello');
  });

  it('records results after the end and says when the partner’s show', async () => {
    signIn();
    const ended: Collaboration = {
      ...DETAIL,
      phase: 'ended',
      phaseLabel: 'Ended',
      yourTurn: false,
      results: { mine: null, theirs: null, theirsRecorded: true, visibleFrom: '2027-04-16' },
      can: { ...DETAIL.can, accept: false, change: false, decline: false, cancel: false, recordResults: true },
    };
    const api = mockApi({
      ...shellRoutes(),
      'GET collaborations/c1': { collaboration: ended },
      'PUT collaborations/c1/results': { collaboration: ended },
    });
    renderRoute('/collaborations/c1');
    expect(await screen.findByText(/Fern Candles has recorded theirs: you see them once you record yours, or from 16th April/)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Reach (optional)' }), '12000');
    await userEvent.type(screen.getByRole('textbox', { name: 'Revenue (optional)' }), '1250.50');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Would you partner with them again?' }), 'yes');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'How did it go, from 1 to 5?' }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save your results' }));
    expect(api.calls('PUT collaborations/c1/results')[0]?.body).toMatchObject({
      reach: '12000',
      revenue: '1250.50',
      currency: 'GBP',
      again: true,
      rating: 5,
    });
  });
});

describe('CollaborationPage, finished', () => {
  it('offers to share it on Member collabs with the figures the member ticks', async () => {
    signIn();
    const done: Collaboration = {
      ...DETAIL,
      phase: 'results-in',
      phaseLabel: 'Results in',
      yourTurn: false,
      results: { mine: { reach: 12000, again: true, rating: 5 }, theirs: { reach: 8000, again: true, rating: 4 }, theirsRecorded: true, visibleFrom: '2027-04-16' },
      can: { ...DETAIL.can, accept: false, change: false, decline: false, cancel: false, recordResults: true },
    };
    const summary = 'A candlelit supper club for forty: our candles, their oat drinks, sold out twice.';
    const api = mockApi({
      ...shellRoutes(),
      'GET collaborations/c1': { collaboration: done },
      'GET connections/7/share': { share: { state: 'none' } },
      'GET collab': { ideas: [], benefits: {}, efforts: {}, total: 0 },
      'POST connections/7/share': {
        share: {
          state: 'waiting-for-them',
          summary,
          idea: null,
          proposedByYou: true,
          proposedAt: 5,
          collaboration: { id: 'c1', title: 'A candlelit supper club' },
          figures: { yours: ['reach', 'orders'], theirs: [] },
        },
      },
    });
    renderRoute('/collaborations/c1');
    const region = within(await screen.findByRole('region', { name: 'Member collabs' }));
    expect(await region.findByText(/only the figures you both allow are shown/)).toBeInTheDocument();
    await userEvent.click(region.getByRole('button', { name: 'Share this collaboration' }));
    await userEvent.type(region.getByRole('textbox', { name: 'What did you do together?' }), summary);
    const figures = within(region.getByRole('group', { name: 'Which of your figures may be shown?' }));
    await userEvent.click(figures.getByRole('checkbox', { name: 'Orders or sign-ups' }));
    await userEvent.click(figures.getByRole('checkbox', { name: 'Reach' }));
    await userEvent.click(region.getByRole('button', { name: 'Ask Fern Candles to agree' }));
    expect(await region.findByText('Waiting for Fern Candles to agree to share this collab.')).toBeInTheDocument();
    expect(api.calls('POST connections/7/share')[0]?.body).toEqual({ summary, idea: null, collaboration: 'c1', figures: ['reach', 'orders'] });
    expect(region.getByText('Your figures allowed: Reach, Orders or sign-ups · Fern Candles’s: none')).toBeInTheDocument();
  });

  it('offers no sharing before the end', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET collaborations/c1': { collaboration: DETAIL } });
    renderRoute('/collaborations/c1');
    expect(await screen.findByRole('heading', { level: 1, name: 'A candlelit supper club' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Member collabs' })).not.toBeInTheDocument();
  });
});

describe('PlanCollaborationPage', () => {
  it('proposes a plan from a collab idea to a chosen connection', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes(),
      'GET connections': { items: [{ id: 'r1', brand: { id: 7, name: 'Fern Candles' }, contact: null, connectedAt: '2027-03-01T00:00:00Z' }], nextCursor: null },
      'GET collab': { ideas: [{ slug: 'joint-event', title: 'Joint event' }], benefits: {}, efforts: {}, total: 1 },
      'POST collaborations': new Response(
        JSON.stringify({ error: 'Please check the highlighted fields', errors: { start: "The start date can't be in the past" } }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      ),
    });
    renderRoute('/collaborations/new?idea=joint-event');
    const idea = await screen.findByRole('combobox', { name: 'Collab idea (optional)' });
    await waitFor(() => {
      expect(idea).toHaveValue('joint-event');
    });
    expect(document.title).toBe('Tandem Hub: Plan a collaboration');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'With' }), '7');
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Supper club');
    await userEvent.click(screen.getByRole('button', { name: 'Propose the plan' }));
    expect(await screen.findByText("The start date can't be in the past")).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted fields');
    expect(api.calls('POST collaborations')[0]?.body).toMatchObject({ otherBrandId: 7, idea: 'joint-event', title: 'Supper club' });
  });
});
