import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { matchCard, OPTIONS } from '../test-fixtures';

function page(cards: ReturnType<typeof matchCard>[], overrides: Record<string, unknown> = {}) {
  return { matches: cards, total: cards.length, nextCursor: null, showingBrandNames: true, runOutstanding: false, runId: null, ...overrides };
}

function openSearch(path: string, routes: Record<string, MockAnswer>) {
  signIn();
  const api = mockApi({ ...shellRoutes(), 'GET brands/options': OPTIONS, ...routes });
  return { ...renderRoute(path), api };
}

const northwind = matchCard({ id: 31, name: 'Northwind Outdoor', category: 'outdoors', fit: 'Good fit', score: 64 });

describe('Search tab', () => {
  it('searches what the address says and shows the same cards as Matches', async () => {
    openSearch('/matches/search?q=northwnd', { 'GET brands/search?q=northwnd': page([northwind]) });
    const card = within(await screen.findByRole('article', { name: 'Northwind Outdoor' }));
    expect(card.getByText('Good fit')).toBeInTheDocument();
    expect(card.getByText('Of requests sent to Good fit brands, about 3 in 10 were accepted')).toBeInTheDocument();
    expect(card.queryByText(/64/)).not.toBeInTheDocument(); // a search card shows no raw score either
    expect(card.getByRole('link', { name: 'Northwind Outdoor' })).toHaveAttribute('href', '/matches/brand/31');
    expect(card.getByRole('button', { name: 'Save Northwind Outdoor' })).toBeInTheDocument();
    expect(card.queryByRole('button', { name: /Dismiss/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 brand found');
    expect(screen.getByRole('searchbox')).toHaveValue('northwnd');
    expect(screen.getByRole('link', { name: 'Search' })).toHaveAttribute('aria-current', 'page');
  });

  it('gives the results a heading before the cards, so no heading level is skipped (axe heading-order)', async () => {
    openSearch('/matches/search?q=northwnd', { 'GET brands/search?q=northwnd': page([northwind]) });
    await screen.findByRole('article', { name: 'Northwind Outdoor' });
    const levels = screen.getAllByRole('heading').map((heading) => Number(heading.tagName.slice(1)));
    levels.forEach((level, i) => {
      expect(level - (levels[i - 1] ?? 0), `heading ${i + 1} (h${level})`).toBeLessThanOrEqual(1);
    });
    expect(screen.getByRole('heading', { level: 2, name: 'Search results' })).toBeInTheDocument();
  });

  it('puts the words and filters in the address, so the search can be bookmarked', async () => {
    const { user, router, api } = openSearch('/matches/search', {
      'GET brands/search': page([]),
      'GET brands/search?q=north': page([northwind]),
      'GET brands/search?q=north&category=home': page([]),
    });
    await user.type(await screen.findByRole('searchbox'), 'north');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('article', { name: 'Northwind Outdoor' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=north');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'home');
    expect(await screen.findByText('No brands match your search')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=north&category=home');
    expect(api.calls('GET brands/search?q=north&category=home')).toHaveLength(1);

    await user.click(within(screen.getByRole('search')).getByRole('link', { name: 'Clear search and filters' }));
    await waitFor(() => {
      expect(router.state.location.search).toBe('');
    });
  });

  it('filters by the audience sizes a profile offers', async () => {
    const { user, router } = openSearch('/matches/search', {
      'GET brands/search': page([]),
      'GET brands/search?audienceSize=1K-10K': page([northwind]),
    });
    const filter = await screen.findByRole('combobox', { name: 'Audience size' });
    await waitFor(() => {
      expect(within(filter).getAllByRole('option').map((option) => option.textContent)).toEqual(['Any', ...OPTIONS.audienceSizes]);
    });
    await user.selectOptions(filter, '1K-10K');
    expect(await screen.findByRole('article', { name: 'Northwind Outdoor' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?audienceSize=1K-10K');
  });

  it('shows the next page below the first with its cursor', async () => {
    const first = Array.from({ length: 20 }, (_, i) => matchCard({ id: 100 + i, name: `Kestrel ${i}` }));
    const { user } = openSearch('/matches/search?sort=name', {
      'GET brands/search?sort=name': page(first, { total: 21, nextCursor: 'abc' }),
      'GET brands/search?sort=name&cursor=abc': page([matchCard({ id: 200, name: 'Zest' })], { total: 21 }),
    });
    expect(await screen.findByText('21 brands found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more brands' }));
    expect(await screen.findByRole('article', { name: 'Zest' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Show more brands' })).not.toBeInTheDocument();
  });

  it('hands each page it shows back as seen, once, and says nothing when that fails', async () => {
    const first = Array.from({ length: 20 }, (_, i) => matchCard({ id: 100 + i, name: `Kestrel ${i}` }));
    const { user, api } = openSearch('/matches/search?sort=name&q=kestrel', {
      'GET brands/search?q=kestrel&sort=name': page(first, { total: 21, nextCursor: 'abc', view: 'view-page-1' }),
      'GET brands/search?q=kestrel&sort=name&cursor=abc': page([matchCard({ id: 200, name: 'Zest' })], { total: 21, view: 'view-page-2' }),
      'POST brands/search/views': (request) =>
        (request.body as { view: string }).view === 'view-page-2'
          ? jsonResponse({ error: 'view must be a view a search gave in the last hour' }, 400)
          : { kept: 20 },
    });
    expect(await screen.findByText('21 brands found')).toBeInTheDocument();
    await waitFor(() => {
      expect(api.calls('POST brands/search/views').map((call) => call.body)).toEqual([{ view: 'view-page-1' }]);
    });
    await user.click(screen.getByRole('button', { name: 'Show more brands' }));
    expect(await screen.findByRole('article', { name: 'Zest' })).toBeInTheDocument();
    await waitFor(() => {
      expect(api.calls('POST brands/search/views').map((call) => call.body)).toEqual([{ view: 'view-page-1' }, { view: 'view-page-2' }]);
    });
    // For the brand the search was for.
    const searchedAs = api.calls('GET brands/search?q=kestrel&sort=name')[0]?.headers.get('X-Brand-Id');
    expect(searchedAs).toBeTruthy();
    expect(api.calls('POST brands/search/views').map((call) => call.headers.get('X-Brand-Id'))).toEqual([searchedAs, searchedAs]);
    // The refused view troubles no one: no alert, no toast.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why names are hidden to a member without a subscription', async () => {
    openSearch('/matches/search?q=outdoors', {
      'GET brands/search?q=outdoors': page([matchCard({ name: 'An outdoors brand', nameVisible: false })], {
        showingBrandNames: false,
      }),
    });
    expect(await screen.findByRole('article', { name: 'An outdoors brand' })).toBeInTheDocument();
    expect(screen.getByText('Brand names are hidden.')).toBeInTheDocument();
  });

  it('saves a brand from the results, and says so in a toast when the save is refused', async () => {
    const { user, api } = openSearch('/matches/search?q=north', {
      'GET brands/search?q=north': page([northwind]),
      'PUT matches/31/saved': jsonResponse({ error: 'Service unavailable' }, 503),
    });
    const card = within(await screen.findByRole('article', { name: 'Northwind Outdoor' }));
    await user.click(card.getByRole('button', { name: 'Save Northwind Outdoor' }));
    expect(await screen.findByText("We couldn't save that brand")).toBeInTheDocument();
    expect(screen.getByText('Service unavailable')).toBeInTheDocument();
    expect(card.queryByText('Saved')).not.toBeInTheDocument();
    expect(api.calls('PUT matches/31/saved')).toHaveLength(1);
  });

  it("shows the server's reason when a search is refused, and lets the member try again", async () => {
    openSearch('/matches/search?category=rockets', {
      'GET brands/search?category=rockets': jsonResponse({ error: 'Choose a category from the list' }, 400),
    });
    expect(await screen.findByText("We couldn't search the directory")).toBeInTheDocument();
    expect(screen.getByText('Choose a category from the list')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
