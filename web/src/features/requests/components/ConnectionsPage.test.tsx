import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BEAN, FERN } from '../test-fixtures';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { pinToday } from '@/testing/clock';

const connection = (overrides = {}) => ({
  id: 'r1',
  brand: FERN,
  contact: { name: 'Flora Fern', email: 'flora@fern.example', phone: '+44 20 7946 0000', website: 'fern.example' },
  connectedAt: '2026-11-03T10:00:00Z',
  isNew: false,
  ...overrides,
});

describe('ConnectionsPage', () => {
  pinToday();

  it.each(['/connections', '/connections/connected'])('%s lists connected brands with their contact details', async (path) => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET connections': { items: [connection({ isNew: true }), connection({ id: 'r2', brand: BEAN, contact: null })], nextCursor: null } });
    renderRoute(path);
    const items = within(await screen.findByRole('list', { name: 'Connected brands' })).getAllByRole('article');
    expect(items).toHaveLength(2);
    const [firstCard, secondCard] = items;
    if (!firstCard || !secondCard) throw new Error('two cards expected');
    const first = within(firstCard);
    expect(first.getByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(first.getByText('New')).toBeInTheDocument();
    expect(first.getByText('3rd November')).toHaveAttribute('dateTime', '2026-11-03T10:00:00.000Z');
    const email = first.getByRole('link', { name: 'flora@fern.example' });
    expect(email).toHaveAttribute('href', 'mailto:flora@fern.example');
    // Narrow screens wrap the address before '@' and after dots, never mid-word.
    expect(email.innerHTML).toBe('flora<wbr>@fern.<wbr>example');
    expect(first.getByRole('link', { name: '+44 20 7946 0000' })).toHaveAttribute('href', 'tel:+442079460000');
    expect(first.getByRole('link', { name: /^fern\.example/ })).toHaveAttribute('href', 'https://fern.example');
    expect(first.getByRole('link', { name: 'Open connection with Wild Fern Candles' })).toHaveAttribute('href', '/connections/1/7');
    expect(within(secondCard).getByText('They have not added contact details yet.')).toBeInTheDocument();
  });

  it('says how to get connections when there are none', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET connections': { items: [], nextCursor: null } });
    renderRoute('/connections');
    expect(await screen.findByRole('heading', { name: 'No connections yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Matches' })).toHaveAttribute('href', '/matches');
  });

  it('opens one connection by the other brand’s id', async () => {
    signIn();
    const api = mockApi({ ...shellRoutes(), 'GET connections/7': connection() });
    renderRoute('/connections/1/7');
    expect(await screen.findByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'flora@fern.example' })).toBeInTheDocument();
    expect(api.calls('GET connections/7')[0]?.headers.get('X-Brand-Id')).toBe('1');
  });
});
