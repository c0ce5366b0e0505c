import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { matchCard, matchesBody, matchesServer } from '../test-fixtures';

const TWO_BRANDS = {
  userBrands: [
    { id: 1, name: 'Oat & Co' },
    { id: 2, name: 'Bean Bros' },
  ],
};

function openMatches(path: string, routes: Record<string, MockAnswer>, dashboard: Record<string, unknown> = {}) {
  signIn();
  const api = mockApi({ ...shellRoutes(dashboard), ...routes });
  const view = renderRoute(path);
  return { ...view, api };
}

const card = (name: string) => screen.getByRole('article', { name });

describe('Matches page', () => {
  it('asks for both lists at once and drops the new-matches count without asking for the dashboard again (issue 39)', async () => {
    let savedAskedMeanwhile = false;
    const { api } = openMatches(
      '/matches/potentials',
      {
        'GET matches?list=potentials': async () => {
          await new Promise((done) => setTimeout(done, 30));
          savedAskedMeanwhile = api.calls('GET matches?list=saved').length > 0;
          return jsonResponse(matchesBody([matchCard({ isNew: true }), matchCard({ id: 22, name: 'Soap Co', isNew: true })]));
        },
        'GET matches?list=saved': matchesBody([]),
      },
      { menuCounts: { dashboard: 0, matches: 3, requests: 0, connections: 0, declines: 0 } },
    );
    const menu = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(await menu.findByRole('link', { name: 'Matches (3 new)' })).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Soap Co' })).toBeInTheDocument();
    expect(savedAskedMeanwhile).toBe(true);
    expect(await menu.findByRole('link', { name: 'Matches (1 new)' })).toBeInTheDocument();
    expect(api.calls('GET dashboard')).toHaveLength(1);
  });

  it("closes a card's More menu with Esc and puts focus back on its toggle", async () => {
    const { user } = openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([matchCard()]),
      'GET matches?list=saved': matchesBody([]),
    });
    const bean = within(await screen.findByRole('article', { name: 'Bean Bros' }));
    const more = bean.getByText('More', { exact: false, selector: 'summary' });
    await user.click(more);
    const menu = more.closest('details');
    expect(menu).toHaveAttribute('open');
    bean.getByRole('button', { name: /^Report this brand/ }).focus();
    await user.keyboard('{Escape}');
    expect(menu).not.toHaveAttribute('open');
    expect(more).toHaveFocus();
  });

  it('says when the matches could not be loaded, and Try again loads them', async () => {
    let down = true;
    const { user } = openMatches('/matches', {
      'GET matches?list=potentials': () =>
        down ? jsonResponse({ error: 'Service unavailable' }, 503) : jsonResponse(matchesBody([matchCard()])),
      'GET matches?list=saved': matchesBody([]),
    });
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getByText("We couldn't load your matches")).toBeInTheDocument();
    down = false;
    await user.click(alert.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.queryByText("We couldn't load your matches")).not.toBeInTheDocument();
  });

  it('shows cards with fit, reasons and a New badge, and tab counts', async () => {
    openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([
        matchCard({ isNew: true }),
        matchCard({ id: 22, name: 'Soap Co', fit: 'Worth a look', score: 41.6, reasons: [] }),
      ]),
      'GET matches?list=saved': matchesBody([matchCard({ id: 23, name: 'Tea Time', saved: true })]),
    });
    const bean = within(await screen.findByRole('article', { name: 'Bean Bros' }));
    expect(bean.getByText('Great fit')).toBeInTheDocument();
    expect(bean.getByText('Of requests sent to Great fit brands, about 4 in 10 were accepted')).toBeInTheDocument();
    expect(bean.queryByText(/86/)).not.toBeInTheDocument(); // the score is not a probability: no percent
    expect(bean.getByText('New')).toBeInTheDocument();
    expect(bean.getByText('They want newsletter swaps, like you')).toBeInTheDocument();
    expect(bean.getByRole('link', { name: 'Bean Bros' })).toHaveAttribute('href', '/matches/brand/21');
    expect(within(card('Soap Co')).getByText('Worth a look')).toBeInTheDocument();
    expect(within(card('Soap Co')).queryByText(/were accepted/)).not.toBeInTheDocument(); // nothing backed yet
    const tabs = within(screen.getByRole('navigation', { name: 'Match lists' }));
    expect(tabs.getByRole('link', { name: 'Potentials 2' })).toHaveAttribute('aria-current', 'page');
    expect(tabs.getByRole('link', { name: 'Saved 1' })).toHaveAttribute('href', '/matches/saved');
    expect(screen.queryByText('Tea Time')).not.toBeInTheDocument();
  });

  it('says on a card how the brand answers requests, and nothing for a brand without the history', async () => {
    openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([
        matchCard({ replyLabels: ['Usually replies within a day', 'Replies to most requests'] }),
        matchCard({ id: 22, name: 'Soap Co', replyLabels: [] }),
      ]),
      'GET matches?list=saved': matchesBody([]),
    });
    const bean = within(await screen.findByRole('article', { name: 'Bean Bros' }));
    expect(bean.getByText('Usually replies within a day · Replies to most requests')).toBeInTheDocument();
    expect(within(card('Soap Co')).queryByText(/Usually replies|Replies to most/)).not.toBeInTheDocument();
  });

  it('masks names for members without a subscription and says how to see them', async () => {
    const { user } = openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([matchCard({ name: 'A food & drink brand', nameVisible: false })], {
        showingBrandNames: false,
      }),
      'GET matches?list=saved': matchesBody([], { showingBrandNames: false }),
    });
    const masked = within(await screen.findByRole('article', { name: 'A food & drink brand' }));
    expect(masked.getByRole('link', { name: 'A food & drink brand' })).toHaveClass('brand-name--masked');
    expect(screen.getByText('Some brand names are hidden.')).toBeInTheDocument();
    // Subscribing opens the plans over the page (no placeholder page on the way).
    await user.click(masked.getByRole('button', { name: 'Subscribe to see brand names' }));
    expect(await screen.findByRole('dialog', { name: 'You need to buy a subscription to continue' })).toBeInTheDocument();
  });

  it('tells a subscriber when a brand hides its own name', async () => {
    openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([matchCard({ name: 'A beauty brand', nameVisible: false })]),
      'GET matches?list=saved': matchesBody([]),
    });
    const masked = within(await screen.findByRole('article', { name: 'A beauty brand' }));
    expect(masked.getByText('This brand keeps its name private until you connect.')).toBeInTheDocument();
    expect(screen.queryByText('Some brand names are hidden.')).not.toBeInTheDocument();
  });

  it('saves and unsaves a match, moving it in and out of Saved', async () => {
    const { user, api } = openMatches('/matches', matchesServer([matchCard()]).routes);
    await user.click(await screen.findByRole('button', { name: 'Save Bean Bros' }));
    expect(await within(card('Bean Bros')).findByText('Saved')).toBeInTheDocument();
    expect(api.calls('PUT matches/21/saved')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Saved 1' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Saved 1' }));
    expect(await screen.findByRole('list', { name: 'Saved matches' })).toBeInTheDocument();
    await user.click(within(card('Bean Bros')).getByRole('button', { name: 'Unsave Bean Bros' }));
    expect(await screen.findByText('No saved matches yet')).toBeInTheDocument();
    expect(api.calls('DELETE matches/21/saved')).toHaveLength(1);
  });

  it('dismisses a match and brings it back with Undo', async () => {
    const { user, api } = openMatches('/matches', matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })]).routes);
    await user.click(await screen.findByRole('button', { name: 'Dismiss Bean Bros' }));
    const bar = await screen.findByText(/You dismissed/);
    expect(bar).toHaveTextContent("You dismissed Bean Bros. It won't be suggested again.");
    expect(screen.queryByRole('article', { name: 'Bean Bros' })).not.toBeInTheDocument();
    expect(api.calls('PUT matches/21/dismissed')).toHaveLength(1);
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Undo' })).toHaveFocus();
    });

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(api.calls('DELETE matches/21/dismissed')).toHaveLength(1);
    // Back in its place, first.
    const names = screen.getAllByRole('article').map((article) => article.querySelector('h3')?.textContent);
    expect(names).toEqual(['Bean Bros', 'Soap Co']);
    expect(screen.queryByText(/You dismissed/)).not.toBeInTheDocument();
  });

  it('keeps the card when a dismiss fails, and says why', async () => {
    const { user } = openMatches('/matches', {
      ...matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })]).routes,
      'PUT matches/21/dismissed': jsonResponse({ error: 'Match not found' }, 404),
    });
    await user.click(await screen.findByRole('button', { name: 'Dismiss Bean Bros' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not dismiss');
    expect(alert).toHaveTextContent('Match not found');
    const names = screen.getAllByRole('article').map((article) => article.querySelector('h3')?.textContent);
    expect(names).toEqual(['Bean Bros', 'Soap Co']);
    expect(within(card('Bean Bros')).getByRole('button', { name: 'Dismiss Bean Bros' })).toBeEnabled();
    expect(screen.queryByText(/You dismissed/)).not.toBeInTheDocument();
  });

  it('puts the card back as it was when a save fails, and says why', async () => {
    const { user } = openMatches('/matches', {
      ...matchesServer([matchCard()]).routes,
      'PUT matches/21/saved': jsonResponse({ error: 'Service unavailable' }, 503),
    });
    await user.click(await screen.findByRole('button', { name: 'Save Bean Bros' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not save');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(within(card('Bean Bros')).getByRole('button', { name: 'Save Bean Bros' })).toBeEnabled();
    expect(within(card('Bean Bros')).queryByText('Saved', { exact: true })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Saved 0' })).toBeInTheDocument();
  });

  it('says so when an Undo fails, and keeps the bar to try again', async () => {
    const { user } = openMatches('/matches', {
      ...matchesServer([matchCard(), matchCard({ id: 22, name: 'Soap Co' })]).routes,
      'DELETE matches/21/dismissed': jsonResponse({ error: 'Service unavailable' }, 503),
    });
    await user.click(await screen.findByRole('button', { name: 'Dismiss Bean Bros' }));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not undo');
    expect(screen.queryByRole('article', { name: 'Bean Bros' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
  });

  it('points a member with no matches at the brand profile and a new run', async () => {
    const { user, api } = openMatches('/matches', {
      'GET matches?list=potentials': matchesBody([]),
      'GET matches?list=saved': matchesBody([]),
      'POST matching/run/1': jsonResponse({ runId: 'r1', status: 'queued', message: "We're on it." }, 202),
      'GET matching/run-check/r1/1': { status: 'running', message: "We're on it." },
    });
    const empty = within(await screen.findByRole('region', { name: 'No matches yet' }));
    expect(empty.getByRole('link', { name: 'Complete your brand profile' })).toHaveAttribute('href', '/account/brands');
    await user.click(empty.getByRole('button', { name: 'Find new matches' }));
    expect(await screen.findByText("We're on it.")).toBeInTheDocument();
    expect(api.calls('POST matching/run/1')).toHaveLength(1);
    expect(await screen.findByRole('region', { name: 'Your matches are on the way' })).toBeInTheDocument();
  });

  it('offers a retry when the matches fail to load', async () => {
    let calls = 0;
    const { user } = openMatches('/matches', {
      'GET matches?list=potentials': () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: 'Service unavailable' }, 503) : matchesBody([matchCard()]);
      },
      'GET matches?list=saved': matchesBody([]),
    });
    expect(await screen.findByText('Service unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
  });

  it('asks a member without a brand to add one, without calling Matches', async () => {
    const { api } = openMatches('/matches', {}, { userBrands: [], dashboard: { brandId: null, brandName: null } });
    expect(await screen.findByRole('region', { name: 'Add your brand first' })).toBeInTheDocument();
    expect(api.requests.some((request) => request.path.startsWith('matches'))).toBe(false);
  });
});

describe('Matches routes', () => {
  it('/matches/saved/{userBrand} selects that brand, then lists its saved matches', async () => {
    const { api } = openMatches(
      '/matches/saved/2',
      {
        'GET dashboard/2': { ...TWO_BRANDS, dashboard: { brandId: 2, brandName: 'Bean Bros' } },
        'GET users/check-brand/2': {},
        'GET matches?list=potentials': matchesBody([]),
        'GET matches?list=saved': matchesBody([matchCard({ id: 30, name: 'Tea Time', saved: true })]),
      },
      TWO_BRANDS,
    );
    expect(await screen.findByRole('article', { name: 'Tea Time' })).toBeInTheDocument();
    expect(window.localStorage.getItem('tandem.selectedBrand')).toBe('"2"');
    const listCalls = api.calls('GET matches?list=saved');
    expect(listCalls.every((request) => request.headers.get('X-Brand-Id') === '2')).toBe(true);
    expect(screen.getByRole('link', { name: 'Potentials 0' })).toHaveAttribute('href', '/matches/potentials/2');
    expect(screen.getByRole('link', { name: 'Tea Time' })).toHaveAttribute('href', '/matches/2/brand/30');
  });

  it("doesn't select a brand the member doesn't manage", async () => {
    const { api } = openMatches(
      '/matches/99',
      { 'GET matches?list=potentials': matchesBody([matchCard()]), 'GET matches?list=saved': matchesBody([]) },
      TWO_BRANDS,
    );
    expect(await screen.findByText('That link is for another brand')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(api.requests.every((request) => request.headers.get('X-Brand-Id') !== '99')).toBe(true);
  });

  it('/matches/brands/{brandIds} filters the lists to those brands', async () => {
    const { api } = openMatches('/matches/brands/21,x,22', {
      'GET matches?list=potentials&brandIds=21,22': matchesBody([matchCard()]),
      'GET matches?list=saved&brandIds=21,22': matchesBody([]),
    });
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.getByText('Showing 2 chosen brands.')).toBeInTheDocument();
    expect(api.calls('GET matches?list=potentials&brandIds=21,22')).toHaveLength(1);
  });
});

describe('Undo of a saved match', () => {
  it('saves it again, which also undoes the dismissal on the server', async () => {
    signIn();
    const api = mockApi({ ...shellRoutes(), ...matchesServer([matchCard({ saved: true, isNew: true })]).routes });
    const { user } = renderRoute('/matches/saved');
    await user.click(await screen.findByRole('button', { name: 'Dismiss Bean Bros' }));
    expect(await screen.findByText('No saved matches yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(api.calls('PUT matches/21/saved')).toHaveLength(1);
    expect(api.calls('DELETE matches/21/dismissed')).toHaveLength(0);
    expect(screen.queryByText('New')).not.toBeInTheDocument();
  });
});

describe('Names hidden platform-wide', () => {
  it("doesn't promise names for a subscription", async () => {
    signIn();
    mockApi({
      ...shellRoutes({ showingBrandNamesGlobal: false, showingBrandNames: false }),
      'GET matches?list=potentials': matchesBody([matchCard({ name: 'A home brand', nameVisible: false })], {
        showingBrandNames: false,
      }),
      'GET matches?list=saved': matchesBody([]),
    });
    renderRoute('/matches');
    const masked = within(await screen.findByRole('article', { name: 'A home brand' }));
    expect(await masked.findByText('Brand names are shown once you connect.')).toBeInTheDocument();
    expect(masked.queryByRole('button', { name: 'Subscribe to see brand names' })).not.toBeInTheDocument();
    expect(screen.queryByText('Some brand names are hidden.')).not.toBeInTheDocument();
  });
});

describe('Coming back to Matches', () => {
  it('asks for the lists again, showing the earlier ones meanwhile', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes(),
      'GET matches?list=potentials': matchesBody([matchCard()]),
      'GET matches?list=saved': matchesBody([]),
      'GET brand/21': { brand: { id: 21, name: 'Bean Bros', nameVisible: true, logoUrl: null, website: null, description: '', category: '', companySize: '', audience: null, values: [], collabKinds: [], social: null, contact: null }, relation: { saved: false, dismissed: false, requestState: null, requestId: null }, match: null, isOwn: false },
    });
    const { user } = renderRoute('/matches');
    await user.click(await screen.findByRole('link', { name: /^View brand/ }));
    await user.click(await screen.findByRole('link', { name: '← Back to matches' }));
    const list = within(await screen.findByRole('list', { name: 'Potential matches' }));
    expect(list.getByRole('article', { name: 'Bean Bros' })).toBeInTheDocument();
    await waitFor(() => {
      expect(api.calls('GET matches?list=potentials')).toHaveLength(2);
    });
  });
});
