import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

const ANSWER = {
  result: 'accepted',
  message: null,
  request: { fromBrand: { name: 'Wild Fern Candles' }, toBrand: { name: 'Oat & Co' }, status: 'accepted' },
};

describe('QuickActionPage', () => {
  it('accepts once, even when React runs effects twice, and offers sign-in', async () => {
    const api = mockApi({ 'POST quick-action/accept/12/34/tok-1': ANSWER });
    renderRoute('/quick-action/accept/12/34/tok-1', { strict: true });
    expect(await screen.findByRole('heading', { level: 1, name: "You accepted Wild Fern Candles's request" })).toBeInTheDocument();
    expect(screen.getByText(/You're now connected with Wild Fern Candles/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to see their details' })).toHaveAttribute(
      'href',
      '/login/?redirect=/connections/connected',
    );
    expect(api.calls('POST quick-action/accept/12/34/tok-1')).toHaveLength(1);
    expect(api.calls('POST quick-action/accept/12/34/tok-1')[0]?.headers.get('Authorization')).toBeNull();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('declines, with the server’s message', async () => {
    signIn();
    mockApi({
      'POST quick-action/decline/12/34/tok-2': {
        ...ANSWER,
        result: 'declined',
        message: 'We let Wild Fern Candles know.',
        request: { ...ANSWER.request, status: 'declined' },
      },
    });
    renderRoute('/quick-action/decline/12/34/tok-2');
    expect(await screen.findByRole('heading', { level: 1, name: "You declined Wild Fern Candles's request" })).toBeInTheDocument();
    expect(screen.getByText('We let Wild Fern Candles know.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your declines' })).toHaveAttribute('href', '/declines/in');
  });

  it('explains a used or expired link and links to sign in', async () => {
    mockApi({ 'POST quick-action/accept/12/34/used': jsonResponse({ error: 'This link has already been used.' }, 410) });
    renderRoute('/quick-action/accept/12/34/used');
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This link has already been used.');
    expect(screen.getByRole('link', { name: 'Sign in to reply' })).toHaveAttribute('href', '/login/?redirect=/requests/received');
  });

  it('does not call the server for an unknown action', async () => {
    const api = mockApi({});
    renderRoute('/quick-action/delete/12/34/x');
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });
});
