import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  dashboardBody,
  FEATURE_ONLY_AREAS,
  FEATURE_ONLY_LIVE_AREAS,
  mockApi,
  shellRoutes,
  type MockAnswer,
} from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { BEAN, CREDITS_5_OF_6, CREDITS_6_OF_6, FERN, OAT, requestItem } from '../test-fixtures';

/** A feature-only account's credits info as the server builds it (no credits, no right to send). */
const FEATURE_ONLY_CREDITS = {
  available: 0,
  total: 0,
  featureOnly: true,
  canSend: false,
  canPitch: false,
  canFeature: false,
  namesShown: false,
  productsAllowed: false,
  addonsAllowed: false,
  featureProductsAllowed: false,
  plan: { state: 'feature_only', kind: null, description: 'Your account features your brand in the Pitch Area.' },
};

function openRequests(path: string, routes: Record<string, MockAnswer>, dashboard: Record<string, unknown> = {}) {
  signIn();
  const api = mockApi({ ...shellRoutes({ credits: CREDITS_6_OF_6, ...dashboard }), ...routes });
  const view = renderRoute(path);
  return { ...view, api };
}

const list = (name: string) => within(screen.getByRole('list', { name }));

describe('RequestsPage', () => {
  it('shows received requests at /requests, newest first, with tabs and the new-item badge', async () => {
    const { api } = openRequests(
      '/requests',
      {
        'GET requests?box=received': {
          items: [
            requestItem({ isNew: true }),
            requestItem({ id: 'r2', fromBrand: BEAN, message: 'Coffee and oats?', status: 'accepted', contact: { email: 'hi@bean.example' } }),
          ],
          nextCursor: null,
        },
      },
      { menuCounts: { dashboard: 0, matches: 0, requests: 12, connections: 0, declines: 0 } },
    );
    const received = await screen.findByRole('list', { name: 'Requests received' });
    expect(screen.getByRole('heading', { level: 1, name: 'Requests' })).toBeInTheDocument();
    const tabs = within(screen.getByRole('navigation', { name: 'Request lists' }));
    expect(tabs.getByRole('link', { name: 'Received (9+ new)' })).toHaveAttribute('aria-current', 'page');
    expect(tabs.getByRole('link', { name: 'Sent' })).toHaveAttribute('href', '/requests/sent');

    const [firstCard, secondCard] = within(received).getAllByRole('article');
    if (!firstCard || !secondCard) throw new Error('two cards expected');
    const first = within(firstCard);
    const second = within(secondCard);
    expect(first.getByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(first.getByText('home')).toBeInTheDocument();
    expect(first.getByText('Fancy a candle and oat cookie giveaway?')).toBeInTheDocument();
    expect(first.getByText('New')).toBeInTheDocument();
    expect(first.getByText('Awaiting your reply')).toBeInTheDocument();
    expect(first.getByText('5 minutes ago')).toBeInTheDocument();
    expect(first.getByRole('link', { name: /open request/i })).toHaveAttribute('href', '/requests/received/1/r1');
    expect(second.getByText('Connected', { selector: '.status-chip' })).toBeInTheDocument();
    expect(second.getByRole('link', { name: 'hi@bean.example' })).toHaveAttribute('href', 'mailto:hi@bean.example');
    expect(second.queryByRole('button', { name: /accept/i })).not.toBeInTheDocument();
    // The list marked the new request as seen: the menu counts are fetched again.
    await waitFor(() => {
      expect(api.calls('GET dashboard').length).toBeGreaterThanOrEqual(2);
    });
  });

  it('shows sent requests on the Sent tab and says when there are none', async () => {
    const { api } = openRequests('/requests/sent', { 'GET requests?box=sent': { items: [], nextCursor: null } });
    expect(await screen.findByRole('heading', { name: 'No requests waiting for a reply' })).toBeInTheDocument();
    expect(api.calls('GET requests?box=sent')).toHaveLength(1);
    expect(api.calls('GET requests?box=received')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Sent' })).toHaveAttribute('aria-current', 'page');
  });

  it('says when a pending request expires, on Received and on Sent', async () => {
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000 - 60_000).toISOString();
    const tomorrow = new Date(Date.now() + 3_600_000).toISOString();
    const { user } = openRequests('/requests', {
      'GET requests?box=received': {
        items: [requestItem({ id: 'r1', expiresAt: inThreeDays })],
        nextCursor: null,
      },
      'GET requests?box=sent': {
        items: [requestItem({ id: 'r2', direction: 'sent', fromBrand: OAT, toBrand: BEAN, expiresAt: tomorrow })],
        nextCursor: null,
      },
    });
    const received = within(await screen.findByRole('list', { name: 'Requests received' }));
    expect(received.getByText('Expires in 3 days')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Sent' }));
    const sent = within(await screen.findByRole('list', { name: 'Requests sent' }));
    expect(sent.getByText('Expires in 1 day')).toBeInTheDocument();
  });

  it('accepts a request and shows the other brand’s contact details', async () => {
    const accepted = requestItem({
      status: 'accepted',
      contact: { name: 'Flora Fern', email: 'flora@fern.example', phone: '+44 20 7946 0000', website: 'https://fern.example' },
    });
    const { user, api } = openRequests('/requests/received', {
      'GET requests?box=received': { items: [requestItem()], nextCursor: null },
      'POST requests/r1/accept': { request: accepted, credits: CREDITS_6_OF_6 },
    });
    await user.click(await screen.findByRole('button', { name: "Accept Wild Fern Candles's request" }));
    const contact = within(await screen.findByRole('region', { name: 'Contact details' }));
    expect(contact.getByText('Flora Fern')).toBeInTheDocument();
    expect(contact.getByRole('link', { name: 'flora@fern.example' })).toHaveAttribute('href', 'mailto:flora@fern.example');
    expect(contact.getByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute('href', 'tel:+442079460000');
    expect(contact.getByRole('link', { name: /^fern\.example/ })).toHaveAttribute('href', 'https://fern.example');
    expect(screen.getByText('Connected', { selector: '.status-chip' })).toBeInTheDocument();
    expect(screen.getByText("You're connected with Wild Fern Candles")).toBeInTheDocument();
    expect(api.calls('POST requests/r1/accept')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /accept/i })).not.toBeInTheDocument();
  });

  it('declines with an optional reply after confirming', async () => {
    const { user, api } = openRequests('/requests/received', {
      'GET requests?box=received': { items: [requestItem()], nextCursor: null },
      'POST requests/r1/decline': { request: requestItem({ status: 'declined', reply: 'Not this season, sorry!' }), credits: null },
    });
    await user.click(await screen.findByRole('button', { name: "Decline Wild Fern Candles's request" }));
    const dialog = within(screen.getByRole('dialog', { name: "Decline Wild Fern Candles's request?" }));
    // Keeping the request changes nothing.
    await user.click(dialog.getByRole('button', { name: 'Keep request' }));
    expect(api.calls('POST requests/r1/decline')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: "Decline Wild Fern Candles's request" }));
    const again = within(screen.getByRole('dialog'));
    await user.type(again.getByLabelText(/reply/i), 'Not this season, sorry!');
    expect(again.getByText('23/1000')).toBeInTheDocument();
    await user.click(again.getByRole('button', { name: 'Decline request' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(api.calls('POST requests/r1/decline')[0]?.body).toEqual({ reply: 'Not this season, sorry!' });
    expect(screen.getByText('Declined', { selector: '.status-chip' })).toBeInTheDocument();
    expect(screen.getByText('Not this season, sorry!')).toBeInTheDocument();
  });

  it('cancels a sent request after confirming, and the credit comes back on the badge', async () => {
    const sent = requestItem({ direction: 'sent', fromBrand: OAT, toBrand: BEAN });
    let cancelled = false;
    const { user, api } = openRequests('/requests/sent', {
      'GET dashboard': () => dashboardBody({ credits: cancelled ? CREDITS_6_OF_6 : CREDITS_5_OF_6 }),
      'GET requests?box=sent': { items: [sent], nextCursor: null },
      'POST requests/r1/cancel': () => {
        cancelled = true;
        return { request: { ...sent, status: 'cancelled' }, credits: CREDITS_6_OF_6 };
      },
    });
    expect(await screen.findByRole('button', { name: '5/6 credits' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Cancel request to Bean Bros' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this request?' }));
    await user.click(dialog.getByRole('button', { name: 'Cancel request' }));
    expect(await screen.findByText('Cancelled', { selector: '.status-chip' })).toBeInTheDocument();
    expect(api.calls('POST requests/r1/cancel')).toHaveLength(1);
    expect(screen.getByRole('button', { name: '6/6 credits' })).toBeInTheDocument();
  });

  it('keeps a cancelled request in the Sent list, marked Cancelled and with nothing left to do', async () => {
    // minutes, not hours: an hour count never crosses midnight ('Yesterday' just after 00:00)
    const cancelledAt = new Date(Date.now() - 2 * 60_000).toISOString();
    openRequests('/requests/sent', {
      'GET requests?box=sent': {
        items: [
          requestItem({ id: 'r2', direction: 'sent', fromBrand: OAT, toBrand: BEAN, status: 'cancelled', updatedAt: cancelledAt }),
          requestItem({ id: 'r3', direction: 'sent', fromBrand: OAT, toBrand: FERN }),
        ],
        nextCursor: null,
      },
    });
    const sent = await screen.findByRole('list', { name: 'Requests sent' });
    const [cancelledCard, openCard] = within(sent).getAllByRole('article');
    if (!cancelledCard || !openCard) throw new Error('two cards expected');
    const cancelled = within(cancelledCard);
    expect(cancelled.getByRole('heading', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(cancelled.getByText('Cancelled', { selector: '.status-chip' })).toBeInTheDocument();
    expect(cancelledCard.querySelector('.time-ago')).toHaveTextContent(/^Cancelled 2 minutes ago$/);
    expect(cancelled.queryByRole('button')).not.toBeInTheDocument();
    expect(cancelledCard).toHaveClass('request-card--closed');
    expect(within(openCard).getByRole('button', { name: 'Cancel request to Wild Fern Candles' })).toBeInTheDocument();
    expect(openCard).not.toHaveClass('request-card--closed');
  });

  it('tells the sender why a request it did not cancel was cancelled (a block or a suspension)', async () => {
    openRequests('/requests/sent', {
      'GET requests?box=sent': {
        items: [
          requestItem({ id: 'r2', direction: 'sent', fromBrand: OAT, toBrand: BEAN, status: 'cancelled', cancelReason: 'unavailable' }),
          requestItem({ id: 'r3', direction: 'sent', fromBrand: OAT, toBrand: FERN, status: 'cancelled', cancelReason: 'suspended' }),
          requestItem({ id: 'r4', direction: 'sent', fromBrand: OAT, toBrand: FERN, status: 'cancelled' }),
        ],
        nextCursor: null,
      },
    });
    const sent = await screen.findByRole('list', { name: 'Requests sent' });
    const [unavailable, suspended, own] = within(sent).getAllByRole('article');
    if (!unavailable || !suspended || !own) throw new Error('three cards expected');
    expect(unavailable).toHaveTextContent(
      'This brand is no longer available, so we cancelled your request. If it was the same subscription month, its credit is back with you.',
    );
    expect(within(unavailable).getByText('Cancelled', { selector: '.status-chip' })).toBeInTheDocument();
    expect(within(unavailable).queryByRole('button')).not.toBeInTheDocument();
    expect(suspended).toHaveTextContent('We cancelled this request when your brand was suspended.');
    expect(own.querySelector('.request-card__why')).toBeNull(); // the sender's own cancel needs no word
  });

  it('shows a 409 clearly and shows the request as it now is', async () => {
    let reads = 0;
    const { user } = openRequests('/requests/received', {
      'GET requests?box=received': { items: [requestItem()], nextCursor: null },
      'POST requests/r1/accept': jsonResponse({ error: 'Wild Fern Candles cancelled this request.' }, 409),
      'GET requests/r1': () => {
        reads += 1;
        return { request: requestItem({ status: 'cancelled' }) };
      },
    });
    await user.click(await screen.findByRole('button', { name: "Accept Wild Fern Candles's request" }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Wild Fern Candles cancelled this request.');
    expect(await screen.findByText('Cancelled by sender', { selector: '.status-chip' })).toBeInTheDocument();
    expect(reads).toBe(1);
    expect(screen.queryByRole('button', { name: /accept/i })).not.toBeInTheDocument();
  });

  it('loads older requests with Load more', async () => {
    const { user, api } = openRequests('/requests/received', {
      'GET requests?box=received': { items: [requestItem()], nextCursor: 'c2' },
      'GET requests?box=received&cursor=c2': { items: [requestItem({ id: 'r9', fromBrand: BEAN })], nextCursor: null },
    });
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('heading', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(list('Requests received').getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.calls('GET requests?box=received&cursor=c2')).toHaveLength(1);
  });

  it('selects the brand named in the address and sends it with the list call', async () => {
    const brands = { userBrands: [{ id: 1, name: 'Oat & Co' }, { id: 2, name: 'Bean Bros' }] };
    signIn();
    const api = mockApi({
      ...shellRoutes(brands),
      'GET dashboard/2': { ...brands, dashboard: { brandId: 2, brandName: 'Bean Bros' } },
      'GET users/check-brand/2': { id: 'u1', email: 'ana@oat.co', emailConfirmed: true },
      'GET requests?box=sent': { items: [requestItem({ direction: 'sent', fromBrand: BEAN, toBrand: FERN })], nextCursor: null },
    });
    renderRoute('/requests/sent/2');
    expect(await screen.findByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    const calls = api.calls('GET requests?box=sent');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('X-Brand-Id')).toBe('2');
    expect(window.localStorage.getItem('tandem.selectedBrand')).toBe('"2"');
    expect(screen.getByRole('link', { name: 'Received' })).toHaveAttribute('href', '/requests/received/2');
  });

  it('follows the brand switcher to the same list for the chosen brand', async () => {
    const brands = { userBrands: [{ id: 1, name: 'Oat & Co' }, { id: 2, name: 'Bean Bros' }] };
    signIn();
    const api = mockApi({
      ...shellRoutes(brands),
      'GET dashboard/1': { ...brands, dashboard: { brandId: 1, brandName: 'Oat & Co' } },
      'GET dashboard/2': { ...brands, dashboard: { brandId: 2, brandName: 'Bean Bros' } },
      'GET users/check-brand/1': { id: 'u1', email: 'ana@oat.co', emailConfirmed: true },
      'GET users/check-brand/2': { id: 'u1', email: 'ana@oat.co', emailConfirmed: true },
      'GET requests?box=sent': { items: [], nextCursor: null },
    });
    const { user, router } = renderRoute('/requests/sent/1');
    await screen.findByRole('heading', { name: 'No requests waiting for a reply' });
    await user.selectOptions(await screen.findByLabelText('Brand'), '2');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/requests/sent/2');
    });
    await waitFor(() => {
      expect(api.calls('GET requests?box=sent').map((call) => call.headers.get('X-Brand-Id'))).toEqual(['1', '2']);
    });
  });

  it("is 'Pitches Received' for feature-only members", async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    mockApi({ ...shellRoutes(), 'GET requests?box=received': { items: [], nextCursor: null } });
    renderRoute('/requests/received');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pitches Received' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No pitches yet' })).toBeInTheDocument();
    // The tab's title says what the heading and their menu say.
    expect(document.title).toBe('Tandem Hub: Pitches Received');
    // Received only: no Sent tab, and no way to Matches (not part of their account).
    expect(screen.queryByRole('navigation', { name: 'Request lists' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sent' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to Matches' })).not.toBeInTheDocument();
  });

  it('lists a feature-only member\'s pitches and sends /requests/sent back to them', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    // The server's areas for a feature-only account whose feature has been live: no sending.
    const api = mockApi({
      ...shellRoutes({ credits: { areas: FEATURE_ONLY_LIVE_AREAS } }, { featureOnly: true }),
      'GET requests?box=received': { items: [requestItem()], nextCursor: null },
    });
    const { router } = renderRoute('/requests/sent');
    const pitches = await screen.findByRole('list', { name: 'Pitches received' });
    expect(within(pitches).getByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/requests/received');
    expect(api.calls('GET requests?box=sent')).toHaveLength(0);
  });

  it('still shows members the Sent tab and the way to Matches', async () => {
    openRequests('/requests/received', { 'GET requests?box=received': { items: [], nextCursor: null } });
    expect(await screen.findByRole('heading', { name: 'No requests waiting for you' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sent' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Matches' })).toHaveAttribute('href', '/matches');
  });

  it('never sends a brand that is not the member’s', async () => {
    const { api } = openRequests('/requests/received/99', {});
    expect(await screen.findByText("That brand isn't one of yours")).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.startsWith('requests'))).toHaveLength(0);
    expect(api.requests.every((request) => request.headers.get('X-Brand-Id') !== '99')).toBe(true);
  });

  it('shows a load failure with a retry', async () => {
    let calls = 0;
    const { user } = openRequests('/requests', {
      'GET requests?box=received': () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: 'Service unavailable' }, 503) : { items: [requestItem()], nextCursor: null };
      },
    });
    expect(await screen.findByText('Service unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
  });
});

describe('RequestDetailPage', () => {
  it('opens one received request, also on its payment-processing address', async () => {
    for (const path of ['/requests/received/1/r1', '/requests/received/1/r1/payment-processing/cs_1']) {
      const { api, unmount } = openRequests(path, { 'GET requests/r1': { request: requestItem() } });
      expect(await screen.findByRole('heading', { level: 1, name: 'Request' })).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: "Accept Wild Fern Candles's request" })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: '← All received requests' })).toHaveAttribute('href', '/requests/received/1');
      expect(api.calls('GET requests/r1')).toHaveLength(1);
      unmount();
    }
  });

  it("says so when the request can't be opened", async () => {
    openRequests('/requests/received/1/r404', {
      'GET requests/r404': jsonResponse({ error: 'Request not found.' }, 404),
    });
    expect(await screen.findByText('Request not found.')).toBeInTheDocument();
  });

  it('loads the request again after a failure', async () => {
    let calls = 0;
    const { user } = openRequests('/requests/received/1/r1', {
      'GET requests/r1': () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: 'Service unavailable' }, 503) : { request: requestItem() };
      },
    });
    expect(await screen.findByText("We couldn't open this request")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});

describe('a feature-only member accepting a pitch', () => {
  it("keeps every menu item: the accept answer's credits replace the account's, the brand's areas and feature stay", async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    const feature = { _id: 'f1', approved: true, current: true, pending: false, paid: true, expires: null, hasHadLive: true };
    const onDashboard = {
      ...FEATURE_ONLY_CREDITS,
      featureDone: feature,
      areas: { ...FEATURE_ONLY_LIVE_AREAS },
    };
    // What an accept may answer: the account's credits built without this brand's feature (no
    // featureDone, so none of the areas a live feature brings), and a new balance.
    const answered = { ...FEATURE_ONLY_CREDITS, available: 0, total: 0, featureDone: { _id: null, hasHadLive: false }, areas: { ...FEATURE_ONLY_AREAS } };
    let reload: ((body: unknown) => void) | null = null;
    let dashboards = 0;
    const dashboard = () => {
      dashboards += 1;
      if (dashboards === 1) return dashboardBody({ credits: onDashboard, menuCounts: { dashboard: 0, matches: 0, requests: 1, connections: 0, declines: 0 } });
      // The reload after the accept stays in flight until the test lets it answer.
      return new Promise((resolve) => {
        reload = resolve;
      });
    };
    const api = mockApi({
      ...shellRoutes({}, { featureOnly: true }),
      'GET dashboard': dashboard,
      'GET dashboard/1': dashboard,
      'GET requests?box=received': { items: [requestItem()], nextCursor: null },
      'POST requests/r1/accept': { request: requestItem({ status: 'accepted', contact: { email: 'flora@fern.example' } }), credits: answered },
    });
    const { user } = renderRoute('/requests/received');
    const menu = () => within(screen.getByRole('navigation', { name: 'Main' }));
    const labels = () => menu().getAllByRole('listitem').map((item) => item.querySelector('.menu__label')?.textContent);
    const billingInUserMenu = async () => {
      await user.click(screen.getByRole('button', { name: /^Account menu/ }));
      const shown = screen.queryByRole('menuitem', { name: 'Billing' }) !== null;
      await user.keyboard('{Escape}');
      return shown;
    };
    await waitFor(() => {
      expect(labels()).toEqual(['Dashboard', 'Pitch Area', 'Pitches Received', 'Profile']);
    });
    expect(await billingInUserMenu()).toBe(true);

    await user.click(await screen.findByRole('button', { name: /^Accept Wild Fern Candles/ }));
    expect(await screen.findByText('Connected', { selector: '.status-chip' })).toBeInTheDocument();
    expect(api.calls('POST requests/r1/accept')).toHaveLength(1);
    // The reload is still on its way: the menu reads the accept's credits merged into the dashboard.
    expect(reload).not.toBeNull();
    expect(labels()).toEqual(['Dashboard', 'Pitch Area', 'Pitches Received', 'Profile']);
    expect(await billingInUserMenu()).toBe(true);

    // Then the reload answers with the brand's dashboard: still every item.
    act(() => {
      reload?.(jsonResponse(dashboardBody({ credits: { ...onDashboard, available: 0, total: 0 } })));
    });
    await waitFor(() => {
      expect(labels()).toEqual(['Dashboard', 'Pitch Area', 'Pitches Received', 'Profile']);
    });
    expect(await billingInUserMenu()).toBe(true);
  });
});
