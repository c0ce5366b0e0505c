import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

const PREVIEW = (action: 'accept' | 'decline') => ({
  action,
  request: {
    fromBrand: { id: 34, name: 'Wild Fern Candles', logoUrl: null, category: 'home' },
    toBrand: { id: 12, name: 'Oat & Co', logoUrl: null, category: 'food' },
    message: 'Shall we run a candle and oat giveaway?',
    status: 'pending',
  },
});

const ANSWER = {
  result: 'accepted',
  message: null,
  request: { fromBrand: { name: 'Wild Fern Candles' }, toBrand: { name: 'Oat & Co' }, status: 'accepted' },
};

describe('QuickActionPage', () => {
  it('only shows the request on load, even when React runs effects twice; the click accepts once', async () => {
    const api = mockApi({
      'GET quick-action/accept/12/34/tok-1': PREVIEW('accept'),
      'POST quick-action/accept/12/34/tok-1': ANSWER,
    });
    renderRoute('/quick-action/accept/12/34/tok-1', { strict: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Accept this request?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(screen.getByText('Shall we run a candle and oat giveaway?')).toBeInTheDocument();
    expect(screen.getByText('Sent to Oat & Co')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in instead' })).toHaveAttribute(
      'href',
      '/login/?redirect=/requests/received',
    );
    expect(api.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
    expect(api.calls('GET quick-action/accept/12/34/tok-1')[0]?.headers.get('Authorization')).toBeNull();

    const button = screen.getByRole('button', { name: 'Accept request' });
    await userEvent.dblClick(button);
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

  it('declines on the click, with the server’s message', async () => {
    signIn();
    const api = mockApi({
      'GET quick-action/decline/12/34/tok-2': PREVIEW('decline'),
      'POST quick-action/decline/12/34/tok-2': {
        ...ANSWER,
        result: 'declined',
        message: 'We let Wild Fern Candles know.',
        request: { ...ANSWER.request, status: 'declined' },
      },
    });
    renderRoute('/quick-action/decline/12/34/tok-2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Decline this request?' })).toBeInTheDocument();
    expect(screen.getByText(/we'll send them a polite reply/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(api.calls('POST quick-action/decline/12/34/tok-2')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Decline request' }));
    expect(await screen.findByRole('heading', { level: 1, name: "You declined Wild Fern Candles's request" })).toBeInTheDocument();
    expect(screen.getByText('We let Wild Fern Candles know.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your declines' })).toHaveAttribute('href', '/declines/in');
    expect(api.calls('POST quick-action/decline/12/34/tok-2')).toHaveLength(1);
  });

  it('explains a used or expired link on opening, and links to sign in, without posting', async () => {
    const api = mockApi({
      'GET quick-action/accept/12/34/used': jsonResponse({ error: 'This request was already accepted.' }, 410),
    });
    renderRoute('/quick-action/accept/12/34/used');
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This request was already accepted.');
    expect(screen.getByRole('link', { name: 'Sign in to reply' })).toHaveAttribute('href', '/login/?redirect=/requests/received');
    expect(screen.queryByRole('button', { name: 'Accept request' })).not.toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows a forged link as not valid', async () => {
    mockApi({
      'GET quick-action/decline/12/34/forged': jsonResponse(
        { error: 'This link is not valid. Please sign in to answer the request.' },
        400,
      ),
    });
    renderRoute('/quick-action/decline/12/34/forged');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid.');
  });

  it('shows the link error when the request was answered between opening and clicking', async () => {
    const api = mockApi({
      'GET quick-action/accept/12/34/tok-3': PREVIEW('accept'),
      'POST quick-action/accept/12/34/tok-3': jsonResponse({ error: 'This request was cancelled by the brand that sent it.' }, 410),
    });
    renderRoute('/quick-action/accept/12/34/tok-3');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept request' }));
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This request was cancelled by the brand that sent it.');
    expect(api.calls('POST quick-action/accept/12/34/tok-3')).toHaveLength(1);
  });

  it('lets the person try again after a server error', async () => {
    let attempts = 0;
    const api = mockApi({
      'GET quick-action/accept/12/34/tok-4': PREVIEW('accept'),
      'POST quick-action/accept/12/34/tok-4': () => {
        attempts += 1;
        return attempts === 1 ? jsonResponse({ error: 'Something went wrong. Please try again.' }, 500) : ANSWER;
      },
    });
    renderRoute('/quick-action/accept/12/34/tok-4');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Accept request' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Accept request' }));
    expect(await screen.findByRole('heading', { level: 1, name: "You accepted Wild Fern Candles's request" })).toBeInTheDocument();
    expect(api.calls('POST quick-action/accept/12/34/tok-4')).toHaveLength(2);
  });

  it('does not call the server for an unknown action', async () => {
    const api = mockApi({});
    renderRoute('/quick-action/delete/12/34/x');
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });
});
