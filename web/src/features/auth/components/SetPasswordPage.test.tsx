import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';

const SPENT = 'This link has expired or was already used. Please ask for a new one.';
const USABLE = { valid: true };

describe('ResetPasswordPage', () => {
  it('sets the new password with the code from the link', async () => {
    const api = mockApi({
      'GET users/reset-password/code-9': USABLE,
      'POST users/reset-password': { message: 'Your password has been reset.' },
    });
    const { user } = renderRoute('/reset-password/code-9');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await user.type(screen.getByLabelText('New password'), 'Tandem2025');
    await user.type(screen.getByLabelText('Confirm new password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('heading', { name: 'Password updated' })).toBeInTheDocument();
    expect(screen.getByText('Your password has been reset.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(api.calls('POST users/reset-password')[0]?.body).toEqual({ code: 'code-9', password: 'Tandem2025' });
  });

  it('checks the password rules and the confirmation', async () => {
    const api = mockApi({ 'GET users/reset-password/code-9': USABLE });
    const { user } = renderRoute('/reset-password/code-9');
    await user.type(await screen.findByLabelText('New password'), 'Passw0rd');
    await user.type(screen.getByLabelText('Confirm new password'), 'Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByText('Your password must be harder')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET users/reset-password/code-9',
    ]);
  });

  it('says a used link is spent, with a way to ask for a new one, instead of the form', async () => {
    const api = mockApi({ 'GET users/reset-password/used-code': jsonResponse({ error: SPENT }, 410) });
    renderRoute('/reset-password/used-code');
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
    expect(screen.getByText(SPENT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(api.requests).toHaveLength(1); // checking the link uses nothing
  });

  it('shows no form until the check says the link works', async () => {
    // The check's answer waits on a gate the test opens, not on a resolver the request sets: the
    // request reaches the mock after some awaits of the client's, and on a busy machine the test
    // could answer before it had asked (the answer went nowhere and the check never ended).
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    mockApi({ 'GET users/reset-password/code-9': () => gate.then(() => jsonResponse(USABLE)) });
    renderRoute('/reset-password/code-9');
    expect(await screen.findByRole('heading', { name: 'Checking your link…' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    open();
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
  });

  it('still offers the form when the check itself fails (saving then tells)', async () => {
    mockApi({ 'GET users/reset-password/code-9': jsonResponse({ error: 'Something went wrong' }, 500) });
    renderRoute('/reset-password/code-9');
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
  });

  it('shows an expired link error with a way to ask for a new one', async () => {
    mockApi({
      'GET users/reset-password/code-9': USABLE,
      'POST users/reset-password': jsonResponse({ error: 'This link has expired' }, 400),
    });
    const { user } = renderRoute('/reset-password/code-9');
    await user.type(await screen.findByLabelText('New password'), 'Tandem2025');
    await user.type(screen.getByLabelText('Confirm new password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  });
});

describe('CreatePasswordPage', () => {
  it('creates the first password', async () => {
    const api = mockApi({
      'GET users/create-password/code-3': USABLE,
      'POST users/create-password': { message: 'Password created.' },
    });
    const { user } = renderRoute('/create-password/code-3');
    await screen.findByRole('heading', { name: 'Create your password' });
    await user.type(screen.getByLabelText('Password'), 'Tandem2025');
    await user.type(screen.getByLabelText('Confirm password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    expect(await screen.findByRole('heading', { name: 'Password created' })).toBeInTheDocument();
    expect(api.calls('POST users/create-password')[0]?.body).toEqual({ code: 'code-3', password: 'Tandem2025' });
  });

  it('says a used link is spent and where to ask for a new one', async () => {
    mockApi({ 'GET users/create-password/code-3': jsonResponse({ error: SPENT }, 410) });
    renderRoute('/create-password/code-3');
    expect(await screen.findByText(SPENT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/setup-password');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('shows a used link error', async () => {
    mockApi({
      'GET users/create-password/code-3': USABLE,
      'POST users/create-password': jsonResponse({ error: 'This link has already been used' }, 400),
    });
    const { user } = renderRoute('/create-password/code-3');
    await user.type(await screen.findByLabelText('Password'), 'Tandem2025');
    await user.type(screen.getByLabelText('Confirm password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has already been used');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/setup-password');
  });
});
