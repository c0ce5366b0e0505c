import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { getSession } from '@/lib/session';
import { signIn, TEST_SESSION } from '@/testing/session';

const PROFILE = { name: 'Ana Brand', firstName: 'Ana', initials: 'AB', email: 'ana@oat.co', emailConfirmed: true, hasPassword: true };

function open(dashboard: Record<string, unknown> = {}, extra = {}) {
  const api = mockApi({ ...shellRoutes(dashboard), 'GET users/profile': PROFILE, ...extra });
  return { api, ...renderRoute('/account') };
}

describe('AccountPage', () => {
  it("is the account's home: profile, brands, billing and notifications, each with its page", async () => {
    signIn();
    open({
      userBrands: [
        { id: 1, name: 'Oat & Co' },
        { id: 2, name: 'Bean Bros' },
      ],
      credits: { available: 5, total: 6, active: true, hasSubscription: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    const profile = within(screen.getByRole('region', { name: 'Profile' }));
    expect(await profile.findByText('ana@oat.co')).toBeInTheDocument();
    expect(profile.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/account/profile/');
    const brands = within(screen.getByRole('region', { name: 'Brands' }));
    expect(brands.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Oat & Co', 'Bean Bros']);
    expect(brands.getByRole('link', { name: 'Manage brands' })).toHaveAttribute('href', '/account/brands');
    const billing = within(screen.getByRole('region', { name: 'Billing' }));
    expect(billing.getByText('5 of 6 credits available.')).toBeInTheDocument();
    expect(billing.getByRole('link', { name: 'Open billing' })).toHaveAttribute('href', '/account/subscriptions/');
    expect(screen.getByRole('link', { name: 'Choose notifications' })).toHaveAttribute('href', '/account/notifications/');
    expect(screen.getByRole('region', { name: 'Notification settings' })).toBeInTheDocument();
    expect(screen.queryByText(/coming soon/i)).not.toBeInTheDocument();
  });

  it('leaves out brands and billing for a feature-only account before a feature was live', async () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'feature' } });
    open();
    await screen.findByRole('region', { name: 'Profile' });
    expect(screen.queryByRole('region', { name: 'Brands' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Billing' })).not.toBeInTheDocument();
  });

  it('signs out everywhere after confirming, and lands on sign-in', async () => {
    signIn();
    const { api, user, router } = open({}, { 'POST users/logout-everywhere': { message: "You're signed out everywhere, this browser too." } });
    const section = within(await screen.findByRole('region', { name: 'Sign out everywhere' }));
    await user.click(section.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sign out everywhere?' }));
    await user.click(dialog.getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText("You're signed out everywhere, this browser too.")).toBeInTheDocument();
    expect(api.calls('POST users/logout-everywhere')).toHaveLength(1);
    expect(getSession()).toBeNull();
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/login/');
    });
  });
});
