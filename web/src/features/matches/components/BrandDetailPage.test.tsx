import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSendRequest } from '@/features/requests/send-request-store';
import { closeSubscriptionOverlay } from '@/features/subscriptions';
import { showPaymentComplete } from '@/features/subscriptions/payment-complete-store';
import { dashboardBody, FEATURE_ONLY_AREAS, mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { setSelectedBrand } from '@/lib/session';
import { signIn } from '@/testing/session';
import { OPTIONS, publicView } from '../test-fixtures';

function openBrand(path: string, routes: Record<string, MockAnswer>, dashboard: Record<string, unknown> = {}) {
  signIn();
  const api = mockApi({ ...shellRoutes(dashboard), 'GET brands/options': OPTIONS, ...routes });
  return { ...renderRoute(path), api };
}

afterEach(() => {
  closeSendRequest();
});

describe('Brand page', () => {
  it('shows the brand within Matches: fit, reasons, details with country names', async () => {
    openBrand('/matches/brand/21', { 'GET brand/21': publicView() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.getByText('Great fit')).toBeInTheDocument();
    expect(screen.getByText('Of requests sent to Great fit brands, about 4 in 10 were accepted')).toBeInTheDocument();
    expect(screen.queryByText(/86%/)).not.toBeInTheDocument();
    expect(screen.getByText('They want newsletter swaps, like you')).toBeInTheDocument();
    expect(await screen.findByText('United Kingdom, France')).toBeInTheDocument();
    const details = within(screen.getByRole('region', { name: 'Details' }));
    expect(details.getByText('coffee & tea')).toBeInTheDocument();
    expect(details.getByText('premium')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Instagram (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://instagram.com/bean',
    );
    expect(screen.getByRole('link', { name: '← Back to matches' })).toHaveAttribute('href', '/matches');
    expect(screen.queryByRole('region', { name: 'Contact' })).not.toBeInTheDocument();
  });

  it('says how the brand answers requests when it has the history for it, and nothing otherwise', async () => {
    const labels = ['Usually replies within 3 days', 'Replies to most requests'];
    openBrand('/matches/brand/21', { 'GET brand/21': publicView({}, { replyLabels: labels }) });
    expect(await screen.findByText('Usually replies within 3 days · Replies to most requests')).toBeInTheDocument();
  });

  it('shows no reply label for a brand with too few requests', async () => {
    openBrand('/matches/brand/21', { 'GET brand/21': publicView({}, { replyLabels: [] }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.queryByText(/Usually replies|Replies to most/)).not.toBeInTheDocument();
  });

  it('masks the name of a brand a non-subscriber may not see', async () => {
    openBrand(
      '/brand/21',
      {
        'GET brand/21': publicView({}, { name: 'A food & drink brand', nameVisible: false, website: null }),
      },
      { showingBrandNames: false },
    );
    const title = await screen.findByRole('heading', { level: 1, name: 'A food & drink brand' });
    expect(title).toHaveClass('brand-name--masked');
    expect(screen.getByRole('button', { name: 'Subscribe to see brand names' })).toBeInTheDocument();
  });

  it('shows contact details of a connected brand and no Send request', async () => {
    openBrand('/brand/21', {
      'GET brand/21': publicView(
        { relation: { saved: false, dismissed: false, requestState: 'connected', requestId: 'q1' } },
        { contact: { name: 'Ben', email: 'ben@bean.example', phone: null } },
      ),
    });
    const contact = within(await screen.findByRole('region', { name: 'Contact' }));
    expect(contact.getByRole('link', { name: 'ben@bean.example' })).toHaveAttribute('href', 'mailto:ben@bean.example');
    expect(screen.getByText("You're connected.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send request/ })).not.toBeInTheDocument();
  });

  it('offers to plan a collaboration with a connected brand, the same flow as from Connections', async () => {
    openBrand('/brand/21', {
      'GET brand/21': publicView({ relation: { saved: false, dismissed: false, requestState: 'connected', requestId: 'q1' } }),
    });
    const plan = await screen.findByRole('link', { name: 'Plan a collaboration with Bean Bros' });
    expect(plan).toHaveAttribute('href', '/collaborations/new?with=21');
  });

  it('offers no collaboration with a brand you are not connected with', async () => {
    openBrand('/brand/21', {
      'GET brand/21': publicView({ relation: { saved: false, dismissed: false, requestState: 'requested-out', requestId: 'q1' } }),
    });
    expect(await screen.findByText('Request sent: waiting for their answer.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Plan a collaboration/ })).not.toBeInTheDocument();
  });

  it('offers no collaboration to a feature-only account, even with a connected brand', async () => {
    signIn();
    mockApi({
      ...shellRoutes({ credits: { areas: FEATURE_ONLY_AREAS } }, { featureOnly: true }),
      'GET brands/options': OPTIONS,
      'GET brand/21': publicView({ relation: { saved: false, dismissed: false, requestState: 'connected', requestId: 'q1' } }),
    });
    renderRoute('/brand/21');
    expect(await screen.findByText("You're connected.")).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Plan a collaboration/ })).not.toBeInTheDocument();
  });

  it('says from when a brand may be asked again after a cancel, with no Send request until then', async () => {
    const wait = 'You can send Bean Bros a new request from 23 Dec 2026.';
    const { router } = openBrand('/matches/brand/21?request=1', {
      'GET brand/21': publicView({
        relation: { saved: false, dismissed: false, requestState: 'cancelled', requestId: 'q1', waitMessage: wait },
      }),
    });
    expect(await screen.findByText(wait)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send request/ })).not.toBeInTheDocument();
    await vi.waitFor(() => {
      expect(router.state.location.search).toBe('');
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('saves from the brand page', async () => {
    const { user, api } = openBrand('/matches/brand/21', {
      'GET brand/21': publicView(),
      'PUT matches/21/saved': { saved: true },
    });
    await user.click(await screen.findByRole('button', { name: 'Save Bean Bros' }));
    expect(await screen.findByRole('button', { name: 'Unsave Bean Bros' })).toBeInTheDocument();
    expect(api.calls('PUT matches/21/saved')).toHaveLength(1);
  });

  it('opens the request popup from ?request=1 and from Send request', async () => {
    const { user, router } = openBrand('/matches/brand/21?request=1', { 'GET brand/21': publicView() });
    expect(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Send request to Bean Bros' }));
    expect(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' })).toBeInTheDocument();
  });

  it('offers a suspended brand no Send request, and says why', async () => {
    openBrand('/brand/21?request=1', { 'GET brand/21': publicView() }, { dashboard: { brandId: 1, brandName: 'Oat & Co', suspended: true } });
    expect(await screen.findByText("Your brand is suspended, so it can't send requests.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request to Bean Bros' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('waits for the dashboard before ?request=1 opens the popup: a suspended brand whose dashboard answers last gets none', async () => {
    let answerDashboard = (): void => undefined;
    const answered = new Promise<void>((resolve) => {
      answerDashboard = resolve;
    });
    const suspended = { dashboard: { brandId: 1, brandName: 'Oat & Co', suspended: true } };
    const later = async () => {
      await answered;
      return dashboardBody(suspended);
    };
    // Signed in with the brand chosen (as after the sign-in page), the brand loads without waiting for the dashboard.
    signIn();
    setSelectedBrand(1);
    openBrand('/brand/21?request=1', { 'GET brand/21': publicView(), 'GET dashboard': later, 'GET dashboard/1': later });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => {
      answerDashboard();
    });
    expect(await screen.findByText("Your brand is suspended, so it can't send requests.")).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('out of credits, the send goes on after paying from the overlay: the popup comes back filled in', async () => {
    const typed = 'A spring bundle together?';
    let paid = false;
    const routes: Record<string, MockAnswer> = {
      'GET brand/21': publicView(),
      'POST requests': () =>
        paid
          ? jsonResponse({ request: { id: 'r9' }, credits: null }, 201)
          : jsonResponse({ error: 'You have no credits left.', code: 'out_of_credits' }, 402),
    };
    const first = openBrand('/matches/brand/21?request=1', routes);
    const popup = within(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' }));
    await first.user.type(popup.getByLabelText('Your message'), typed);
    await first.user.click(popup.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('dialog', { name: 'Buy more to continue' })).toBeInTheDocument();
    // Kept for the round trip through the hosted checkout, in this tab and never in the address.
    expect(sessionStorage.getItem('tandem.pendingSend.21')).toContain(typed);
    expect(first.router.state.location.search).toBe('');
    expect(first.router.state.location.pathname).toBe('/matches/brand/21');

    // Checkout leaves the app; the member comes back to a fresh page load on the brand.
    first.unmount();
    closeSubscriptionOverlay();
    paid = true;
    const back = openBrand('/matches/brand/21', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Connect with Bean Bros' })).not.toBeInTheDocument();
    act(() => {
      showPaymentComplete('Thank you, your credits are ready.');
    });
    const done = within(await screen.findByRole('dialog', { name: 'Payment complete' }));
    await back.user.click(done.getByRole('button', { name: 'Continue' }));

    const again = within(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' }));
    expect(again.getByLabelText('Your message')).toHaveValue(typed);
    await back.user.click(again.getByRole('button', { name: 'Send request' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Connect with Bean Bros' })).not.toBeInTheDocument();
    });
    expect(back.api.calls('POST requests').map((call) => call.body)).toEqual([{ toBrandId: 21, message: typed }]);
    expect(sessionStorage.getItem('tandem.pendingSend.21')).toBeNull();
  });

  it('a send kept for after a payment is dropped when the member closes the popup', async () => {
    const { user } = openBrand('/matches/brand/21?request=1', {
      'GET brand/21': publicView(),
      'POST requests': jsonResponse({ error: 'You have no credits left.', code: 'out_of_credits' }, 402),
    });
    const popup = within(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' }));
    await user.type(popup.getByLabelText('Your message'), 'Hello there');
    await user.click(popup.getByRole('button', { name: 'Send request' }));
    await screen.findByRole('dialog', { name: 'Buy more to continue' });
    closeSubscriptionOverlay();
    await user.click(await screen.findByRole('button', { name: 'Send request to Bean Bros' }));
    const again = within(await screen.findByRole('dialog', { name: 'Connect with Bean Bros' }));
    expect(again.getByLabelText('Your message')).toHaveValue('Hello there');
    await user.click(again.getByRole('button', { name: 'Cancel' }));
    expect(sessionStorage.getItem('tandem.pendingSend.21')).toBeNull();
  });

  it('/brand/{userBrand}/{_id} acts for that brand', async () => {
    const brands = { userBrands: [{ id: 1, name: 'Oat & Co' }, { id: 2, name: 'Fig' }] };
    const { api } = openBrand(
      '/brand/2/21',
      {
        'GET dashboard/2': { ...brands, dashboard: { brandId: 2, brandName: 'Fig' } },
        'GET users/check-brand/2': {},
        'GET brand/21': publicView(),
      },
      brands,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Bean Bros' })).toBeInTheDocument();
    expect(api.calls('GET brand/21').map((request) => request.headers.get('X-Brand-Id'))).toEqual(['2']);
  });

  it('says when a brand does not exist', async () => {
    openBrand('/brand/999', { 'GET brand/999': jsonResponse({ error: 'Brand not found' }, 404) });
    expect(await screen.findByRole('heading', { name: "We couldn't find that brand" })).toBeInTheDocument();
  });

  it('never asks the server about an id that is not a number', async () => {
    const { api } = openBrand('/brand/b7', {});
    expect(await screen.findByRole('heading', { name: "We couldn't find that brand" })).toBeInTheDocument();
    expect(api.requests.some((request) => request.path.startsWith('brand/'))).toBe(false);
  });

  it('shows your own brand as others see it, with a way to edit', async () => {
    openBrand('/brand/1', {
      'GET brand/1': publicView({ isOwn: true, match: null }, { id: 1, name: 'Oat & Co' }),
    });
    expect(await screen.findByRole('link', { name: 'Edit your brand profile' })).toHaveAttribute(
      'href',
      '/account/brands?brand=1',
    );
    expect(screen.queryByRole('button', { name: /Send request/ })).not.toBeInTheDocument();
  });

  it('says "not given" for a niche and price tier a brand has not filled in', async () => {
    openBrand('/matches/brand/21', { 'GET brand/21': publicView({}, { niche: '', priceTier: undefined }) });
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    expect(details.getByText('Niche').nextSibling).toHaveTextContent('not given');
    expect(details.getByText('Price tier').nextSibling).toHaveTextContent('not given');
  });
});
