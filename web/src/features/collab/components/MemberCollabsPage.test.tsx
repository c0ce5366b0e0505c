import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { MemberCollab } from '../api/collab';

const ITEM: MemberCollab = {
  _id: 'r1',
  name: 'Oat & Co × Wild Fern Candles',
  active: true,
  shared: true,
  brands: [
    { id: 1, name: 'Oat & Co', logoUrl: null, category: 'food & drink' },
    { id: 7, name: 'Wild Fern Candles', logoUrl: null, category: 'home' },
  ],
  summary: 'A winter bundle of our oat drink and their candles, sold on both shops.',
  idea: { slug: 'product-bundle', title: 'Product bundle' },
  sharedAt: '2026-11-20T10:00:00Z',
  yours: false,
};

describe('MemberCollabsPage', () => {
  // A date of this year is shown without its year: the page is read on a fixed day of 2026, not today.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-04T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the collabs members agreed to show, with both brands, the summary and the idea', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes(),
      'GET collab/examples': { items: [ITEM, { ...ITEM, _id: 'r2', name: 'Bean Bros × Oat & Co', idea: null, yours: true }] },
    });
    renderRoute('/inspiration/member-collabs');
    const list = await screen.findByRole('list', { name: 'Member collabs' });
    const [first, second] = within(list).getAllByRole('listitem').map((li) => within(li));
    expect(first?.getByRole('heading', { name: 'Oat & Co × Wild Fern Candles' })).toBeInTheDocument();
    expect(first?.getByText(ITEM.summary)).toBeInTheDocument();
    expect(first?.getByText(/food & drink · home · shared 20th November/)).toBeInTheDocument();
    expect(first?.getByRole('link', { name: 'Product bundle' })).toHaveAttribute('href', '/inspiration/ideas?idea=product-bundle');
    expect(first?.queryByText('Your brand')).not.toBeInTheDocument();
    expect(second?.getByText('Your brand')).toBeInTheDocument();
    expect(second?.queryByText(/Collab idea/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Member collabs' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls('GET collab/examples')).toHaveLength(1);
  });

  it('starts the line with the date when neither brand gave a category, with no stray separator', async () => {
    signIn();
    const bare = ITEM.brands.map((b) => ({ ...b, category: '' }));
    mockApi({ ...shellRoutes(), 'GET collab/examples': { items: [{ ...ITEM, brands: bare }] } });
    renderRoute('/inspiration/member-collabs');
    const list = await screen.findByRole('list', { name: 'Member collabs' });
    expect(within(within(list).getByRole('listitem')).getByText('shared 20th November')).toBeInTheDocument();
  });

  it('shows a shared collaboration with the figures both brands allowed, side by side', async () => {
    signIn();
    mockApi({
      ...shellRoutes(),
      'GET collab/examples': {
        items: [
          {
            ...ITEM,
            collaboration: {
              title: 'A candlelit supper club',
              format: 'events',
              start: '2026-03-20',
              end: '2026-03-30',
              figures: [
                { figure: 'reach', label: 'Reach', values: [12000, 8000] },
                { figure: 'revenue', label: 'Revenue', values: [{ minor: 125050, currency: 'GBP' }, null] },
              ],
            },
          },
        ],
      },
    });
    renderRoute('/inspiration/member-collabs');
    const table = await screen.findByRole('table', { name: 'Results of A candlelit supper club' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Result', 'Oat & Co', 'Wild Fern Candles']);
    const rows = within(table).getAllByRole('row').slice(1).map((row) => row.textContent);
    expect(rows).toEqual(['Reach12K8K', 'Revenue£1,250.50–']);
    expect(screen.getByText(/A candlelit supper club · events · 20th March/)).toBeInTheDocument();
  });

  it('says how to share one when there are none', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET collab/examples': { items: [] } });
    renderRoute('/inspiration/member-collabs');
    expect(await screen.findByRole('heading', { name: 'No member collabs yet' })).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: 'Connections' })).toHaveAttribute('href', '/connections');
  });
});
