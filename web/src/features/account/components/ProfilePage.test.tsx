import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { getSession } from '@/lib/session';

const PROFILE = {
  name: 'Ana Brand',
  firstName: 'Ana',
  initials: 'AB',
  email: 'ana@oat.co',
  emailConfirmed: true,
  hasPassword: true,
};

function openProfile(routes: Record<string, MockAnswer> = {}, profile: Record<string, unknown> = {}, feature = false) {
  signIn(feature ? { ...TEST_SESSION, sessionInfo: { access: 'feature' } } : TEST_SESSION);
  const api = mockApi({ ...shellRoutes(), 'GET users/profile': { ...PROFILE, ...profile }, ...routes });
  return { ...renderRoute('/account/profile/'), api };
}

const section = (name: string) => within(screen.getByRole('region', { name }));

describe('ProfilePage', () => {
  it('shows the name, the email address and that it is confirmed', async () => {
    openProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Name')).toHaveValue('Ana Brand');
    expect(section('Email address').getByText('ana@oat.co')).toBeInTheDocument();
    expect(section('Email address').getByText('Confirmed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend confirmation email' })).not.toBeInTheDocument();
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Profile');
    });
  });

  it('offers to resend the confirmation email while the address is not confirmed', async () => {
    const { user, api } = openProfile(
      { 'GET users/confirm-email/resend': { message: "We've sent a new confirmation link to ana@oat.co." } },
      { emailConfirmed: false },
    );
    expect(await screen.findByText('Not confirmed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText("We've sent a new confirmation link to ana@oat.co.")).toBeInTheDocument();
    expect(api.calls('GET users/confirm-email/resend')).toHaveLength(1);
  });

  it('saves a new name and keeps the signed-in name and initials in step', async () => {
    const { user, api } = openProfile({
      'PUT users/profile': ({ body }) => ({
        message: 'Your name is saved.',
        profile: { ...PROFILE, name: (body as { name: string }).name, firstName: 'Bea', initials: 'BB' },
      }),
    });
    const name = await screen.findByLabelText('Name');
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Bea Brand');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Your name is saved.')).toBeInTheDocument();
    expect(api.calls('PUT users/profile')[0]?.body).toEqual({ name: 'Bea Brand' });
    expect(getSession()?.name).toBe('Bea Brand');
    expect(getSession()?.initials).toBe('BB');
  });

  it('requires a name', async () => {
    const { user, api } = openProfile();
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(api.calls('PUT users/profile')).toHaveLength(0);
  });

  it('checks a new password with the SPEC rules before sending it', async () => {
    const { user, api } = openProfile();
    const password = within(await screen.findByRole('region', { name: 'Password' }));
    await user.type(password.getByLabelText('Current password'), 'Northwind-Trail-58');
    await user.type(password.getByLabelText('New password'), 'sunflower');
    await user.type(password.getByLabelText('Confirm new password'), 'sunflower');
    await user.click(password.getByRole('button', { name: 'Change password' }));
    expect(
      await password.findByText('Your password must contain a number, have an uppercase character'),
    ).toBeInTheDocument();
    await user.clear(password.getByLabelText('New password'));
    await user.type(password.getByLabelText('New password'), 'short');
    await user.click(password.getByRole('button', { name: 'Change password' }));
    expect(await password.findByText('Your password be at least 8 characters')).toBeInTheDocument();
    expect(api.calls('POST users/change-password')).toHaveLength(0);
  });

  it('asks for the current password and says when the new ones differ', async () => {
    const { user, api } = openProfile();
    const password = within(await screen.findByRole('region', { name: 'Password' }));
    await user.type(password.getByLabelText('New password'), 'Copper-Lantern-Brook-71');
    await user.type(password.getByLabelText('Confirm new password'), 'Copper-Lantern-Brook-72');
    await user.click(password.getByRole('button', { name: 'Change password' }));
    expect(await password.findByText('This field is required')).toBeInTheDocument();
    expect(password.getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.calls('POST users/change-password')).toHaveLength(0);
  });

  it('shows a wrong current password on its field', async () => {
    const { user } = openProfile({
      'POST users/change-password': jsonResponse(
        { error: 'Your current password is not right', errors: { currentPassword: 'Your current password is not right' } },
        400,
      ),
    });
    const password = within(await screen.findByRole('region', { name: 'Password' }));
    await user.type(password.getByLabelText('Current password'), 'Not-Mine-123');
    await user.type(password.getByLabelText('New password'), 'Copper-Lantern-Brook-71');
    await user.type(password.getByLabelText('Confirm new password'), 'Copper-Lantern-Brook-71');
    await user.click(password.getByRole('button', { name: 'Change password' }));
    expect(await password.findByText('Your current password is not right')).toBeInTheDocument();
    expect(password.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(getSession()?.accessToken).toBe('access-1');
  });

  it('changes the password and carries on with the new session', async () => {
    const { user, api } = openProfile({
      'POST users/change-password': {
        message: 'Your password is changed. You were signed out everywhere else.',
        access_token: 'access-2',
        refresh_token: 'refresh-2',
        uid: 'u1',
        account: 'a1',
        initials: 'AB',
        name: 'Ana Brand',
        firstName: 'Ana',
        sessionInfo: { access: 'user' },
      },
    });
    const password = within(await screen.findByRole('region', { name: 'Password' }));
    await user.type(password.getByLabelText('Current password'), 'Northwind-Trail-58');
    await user.type(password.getByLabelText('New password'), 'Copper-Lantern-Brook-71');
    await user.type(password.getByLabelText('Confirm new password'), 'Copper-Lantern-Brook-71');
    await user.click(password.getByRole('button', { name: 'Change password' }));
    expect(
      await password.findByText('Your password is changed. You were signed out everywhere else.'),
    ).toBeInTheDocument();
    expect(api.calls('POST users/change-password')[0]?.body).toEqual({
      currentPassword: 'Northwind-Trail-58',
      newPassword: 'Copper-Lantern-Brook-71',
    });
    expect(getSession()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(password.getByLabelText('Current password')).toHaveValue('');
  });

  it('changes the email address, which then waits for confirmation', async () => {
    const { user, api } = openProfile({
      'PUT users/profile/email': {
        message: "Your email address is changed. We've sent a link to bea@oat.co to confirm it.",
        profile: { ...PROFILE, email: 'bea@oat.co', emailConfirmed: false },
      },
    });
    const email = within(await screen.findByRole('region', { name: 'Email address' }));
    await user.type(email.getByLabelText(/New email address/), 'bea@oat.co');
    await user.type(email.getByLabelText('Current password'), 'Northwind-Trail-58');
    await user.click(email.getByRole('button', { name: 'Change email' }));
    expect(
      await email.findByText("Your email address is changed. We've sent a link to bea@oat.co to confirm it."),
    ).toBeInTheDocument();
    expect(email.getByText('bea@oat.co')).toBeInTheDocument();
    expect(email.getByText('Not confirmed')).toBeInTheDocument();
    expect(email.getByRole('button', { name: 'Resend confirmation email' })).toBeInTheDocument();
    expect(api.calls('PUT users/profile/email')[0]?.body).toEqual({
      email: 'bea@oat.co',
      currentPassword: 'Northwind-Trail-58',
    });
  });

  it('shows an address that is taken on the email field, and refuses an invalid one itself', async () => {
    const { user, api } = openProfile({
      'PUT users/profile/email': jsonResponse(
        { error: 'An account with this email already exists', errors: { email: 'An account with this email already exists' } },
        400,
      ),
    });
    const email = within(await screen.findByRole('region', { name: 'Email address' }));
    await user.type(email.getByLabelText(/New email address/), 'not-an-email');
    await user.type(email.getByLabelText('Current password'), 'Northwind-Trail-58');
    await user.click(email.getByRole('button', { name: 'Change email' }));
    expect(await email.findByText('Invalid email')).toBeInTheDocument();
    expect(api.calls('PUT users/profile/email')).toHaveLength(0);
    await user.clear(email.getByLabelText(/New email address/));
    await user.type(email.getByLabelText(/New email address/), 'sam@oat.co');
    await user.click(email.getByRole('button', { name: 'Change email' }));
    expect(await email.findByText('An account with this email already exists')).toBeInTheDocument();
    expect(email.getByText('ana@oat.co')).toBeInTheDocument();
  });

  it('is the Profile item of a feature-only menu', async () => {
    openProfile({}, {}, true);
    const nav = within(await screen.findByRole('navigation', { name: /main/i }));
    expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account/profile/');
    expect(await screen.findByLabelText('Name')).toHaveValue('Ana Brand');
  });
});
