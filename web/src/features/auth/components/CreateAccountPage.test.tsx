import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';

async function openPage(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi(routes);
  const view = renderRoute('/create-account');
  await screen.findByRole('heading', { name: 'Create your account' });
  return { ...view, api };
}

async function fill(user: Awaited<ReturnType<typeof openPage>>['user'], password = 'Tandem2025') {
  await user.type(screen.getByLabelText('Your name'), 'Ana Brand');
  await user.type(screen.getByLabelText('Brand name'), 'Oat & Co');
  await user.type(screen.getByLabelText('Email'), 'ana@oat.co');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('CreateAccountPage', () => {
  it('creates the account and shows the check-your-email screen', async () => {
    const { user, api } = await openPage({
      'POST users/create-account': jsonResponse({ message: 'Thanks! Check your email for a link to confirm your address.' }, 201),
    });
    await fill(user);
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('ana@oat.co')).toBeInTheDocument();
    expect(screen.getAllByText(/check your email/i)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(api.calls('POST users/create-account')[0]?.body).toEqual({
      name: 'Ana Brand',
      email: 'ana@oat.co',
      password: 'Tandem2025',
      brandName: 'Oat & Co',
    });
  });

  it('checks the SPEC password rules before calling the server', async () => {
    const { user, api } = await openPage();
    await fill(user, 'password1');
    expect(screen.getByText('Your password must have an uppercase character')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('requires every field', async () => {
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(4);
    expect(screen.getByLabelText('Your name')).toHaveFocus();
  });

  it("shows the server's per-field errors under their fields", async () => {
    const { user } = await openPage({
      'POST users/create-account': jsonResponse(
        { error: 'Please check the form', errors: { brandName: 'Brand name is too long' } },
        400,
      ),
    });
    await fill(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check the form');
    expect(screen.getByLabelText('Brand name')).toHaveAccessibleDescription('Brand name is too long');
  });

  it('offers sign-in when the email already has an account', async () => {
    const { user } = await openPage({
      'POST users/create-account': jsonResponse({ error: 'An account with this email already exists' }, 409),
    });
    await fill(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An account with this email already exists');
    expect(screen.getByRole('link', { name: 'reset your password' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });
});
