import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { matchCard, matchesBody } from '@/features/matches/test-fixtures';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { openSubscriptionOverlay } from '../overlay-store';
import { creditsOf, productsBody, productsWithTrial } from '../test-fixtures';

describe('subscription overlay', () => {
  it('offers a subscriber the add-ons, with checkout coming back to the page', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes({ credits: { ...creditsOf('monthly'), available: 0, total: 6 } }),
      'GET requests?box=received': { items: [], nextCursor: null },
      'POST products': productsBody(),
    });
    const { user } = renderRoute('/requests');
    await user.click(await screen.findByRole('button', { name: '0/6 credits' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'How credits work' })).getByRole('button', { name: 'Get more credits' }));
    const overlay = within(await screen.findByRole('dialog', { name: 'Buy more to continue' }));
    expect(await overlay.findByRole('link', { name: 'Buy now: Extra credits, 3 credits' })).toHaveAttribute(
      'href',
      'https://checkout.stripe.test/c/tandem_extra_3',
    );
    expect(overlay.getByRole('link', { name: 'Buy now: Extra credits, 1 credit' })).toBeInTheDocument();
    expect(overlay.queryByText('Tandem membership')).not.toBeInTheDocument();
    expect(api.calls('POST products').map((call) => call.body)).toEqual([{ redirect: '/requests' }]);
  });

  it('opens from "See subscriptions" in Matches with the plans, hiding options below the credit a request needs', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes({ credits: { ...creditsOf('none'), trialOffered: false }, showingBrandNames: false }),
      'GET matches?list=potentials': matchesBody([matchCard({ name: 'A food & drink brand', nameVisible: false })], {
        showingBrandNames: false,
      }),
      'GET matches?list=saved': matchesBody([], { showingBrandNames: false }),
      'POST products': productsBody(),
    });
    const { user } = renderRoute('/matches/potentials');
    await user.click(await screen.findByRole('button', { name: 'See subscriptions' }));
    const overlay = within(await screen.findByRole('dialog', { name: 'You need to buy a subscription to continue' }));
    expect(await overlay.findByRole('link', { name: 'Buy now: Tandem membership, Monthly' })).toBeInTheDocument();
    expect(overlay.getByRole('link', { name: 'Buy now: Tandem membership, Yearly' })).toBeInTheDocument();
    // 3-month access gives no credits in this catalogue: below the 1 a request needs.
    expect(overlay.queryByText('3-month access')).not.toBeInTheDocument();
    expect(api.calls('POST products').map((call) => call.body)).toEqual([{ redirect: '/matches' }]);
  });

  it('does not tell a member to buy when the card it shows first is the free trial', async () => {
    signIn();
    mockApi({
      ...shellRoutes({ credits: creditsOf('none'), showingBrandNames: false }),
      'GET matches?list=potentials': matchesBody([matchCard({ name: 'A food & drink brand', nameVisible: false })], {
        showingBrandNames: false,
      }),
      'GET matches?list=saved': matchesBody([], { showingBrandNames: false }),
      'POST products': productsWithTrial(),
    });
    const { user } = renderRoute('/matches/potentials');
    await user.click(await screen.findByRole('button', { name: 'See subscriptions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start your free trial or choose a plan to continue' });
    const overlay = within(dialog);
    expect(await overlay.findByText('Free')).toBeInTheDocument();
    expect(overlay.getByText('Start free trial')).toBeInTheDocument();
    expect(dialog).not.toHaveTextContent(/buy a subscription/i);
  });

  it.each([
    ['an unpaid feature', { _id: 'f1', paid: false }, true],
    ['a paid feature', { _id: 'f1', paid: true, current: true }, false],
    ['an expired feature', { _id: 'f1', paid: false, expires: '2020-01-01T00:00:00Z' }, false],
  ])("offers a feature-only member with %s that feature only while the server's featureProductsAllowed says so", async (_, featureDone, offered) => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    mockApi({
      ...shellRoutes({ credits: { ...creditsOf('feature-only'), featureDone, featureProductsAllowed: offered } }, { featureOnly: true }),
      'POST products': productsBody(),
    });
    renderRoute('/');
    await screen.findByRole('link', { name: 'Pitch Area' });
    act(() => {
      openSubscriptionOverlay({ type: 'pitch', reason: 'no_subscription' });
    });
    const overlay = within(await screen.findByRole('dialog'));
    if (offered) {
      expect(await overlay.findByRole('link', { name: 'Buy now: Pitch feature, 3 months' })).toBeInTheDocument();
    } else {
      expect(await overlay.findByText(/There's nothing to buy for your account right now/)).toBeInTheDocument();
    }
    expect(overlay.queryByText('Tandem membership')).not.toBeInTheDocument();
    expect(overlay.queryByText(/Extra credits/)).not.toBeInTheDocument();
  });
});
