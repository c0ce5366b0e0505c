import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';

describe('ForgotPasswordPage', () => {
  it('sends the reset link and shows the server message', async () => {
    const api = mockApi({
      'POST users/forgot-password': { message: 'If that email is registered, a reset link is on its way.' },
    });
    const { user } = renderRoute('/forgot-password');
    await screen.findByRole('heading', { name: 'Reset your password' });
    await user.type(screen.getByLabelText('Email'), 'ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('If that email is registered, a reset link is on its way.')).toBeInTheDocument();
    expect(api.calls('POST users/forgot-password')[0]?.body).toEqual({ email: 'ana@oat.co' });
  });

  it('says once that a link is on its way (the server answer is not repeated)', async () => {
    mockApi({
      'POST users/forgot-password': {
        message: "If that email belongs to a Tandem account, we've sent a link to reset the password.",
      },
    });
    const { user } = renderRoute('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByRole('heading', { name: 'Check your email' });
    const text = document.body.textContent;
    expect(text.match(/belongs to a Tandem account/g)).toHaveLength(1);
    expect(text).not.toMatch(/on its way/);
    expect(screen.getByText(/Look in the inbox of/)).toHaveTextContent('Look in the inbox of ana@oat.co, and in its spam folder.');
  });

  it('shows a server error', async () => {
    mockApi({
      'POST users/forgot-password': jsonResponse({ error: 'Too many requests. Try again in a minute.' }, 429),
    });
    const { user } = renderRoute('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in a minute.');
  });
});

describe('SetupPasswordPage', () => {
  it('emails a create-password link', async () => {
    const api = mockApi({ 'POST users/setup-password': { message: 'Check your inbox for a link.' } });
    const { user } = renderRoute('/setup-password');
    await screen.findByRole('heading', { name: 'Set up your password' });
    await user.type(screen.getByLabelText('Email'), 'ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByText('Check your inbox for a link.')).toBeInTheDocument();
    expect(api.calls('POST users/setup-password')[0]?.body).toEqual({ email: 'ana@oat.co' });
  });

  it('shows a server error', async () => {
    mockApi({ 'POST users/setup-password': jsonResponse({ error: 'Invalid email' }, 400) });
    const { user } = renderRoute('/setup-password');
    await user.type(await screen.findByLabelText('Email'), 'ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email');
  });
});

describe('SetupPasswordDirectPage', () => {
  it("explains the missing password and sends the link to the email from sign-in", async () => {
    const api = mockApi({ 'POST users/setup-password': { message: 'Link sent.' } });
    const { user } = renderRoute('/setup-password-direct', { state: { email: 'ana@oat.co' } });
    expect(await screen.findByRole('heading', { name: "Your account doesn't have a password yet" })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ana@oat.co');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByText('Link sent.')).toBeInTheDocument();
    expect(api.calls('POST users/setup-password')[0]?.body).toEqual({ email: 'ana@oat.co' });
  });

  it('shows a server error', async () => {
    mockApi({ 'POST users/setup-password': jsonResponse({ error: 'No account uses this email' }, 404) });
    const { user } = renderRoute('/setup-password-direct');
    await user.type(await screen.findByLabelText('Email'), 'nobody@oat.co');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No account uses this email');
  });
});
