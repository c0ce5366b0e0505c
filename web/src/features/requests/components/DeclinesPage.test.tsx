import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BEAN, FERN, OAT, requestItem } from '../test-fixtures';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

const out = requestItem({ id: 'r1', direction: 'sent', status: 'declined', fromBrand: OAT, toBrand: BEAN, reply: 'Not right now.' });
const inbound = requestItem({ id: 'r2', direction: 'received', status: 'declined', fromBrand: FERN, toBrand: OAT });

function open(path: string) {
  signIn();
  const api = mockApi({
    ...shellRoutes({ menuCounts: { dashboard: 0, matches: 0, requests: 0, connections: 0, declines: 2 } }),
    'GET declines?dir=out': { items: [out], nextCursor: null },
    'GET declines?dir=in': { items: [inbound], nextCursor: null },
  });
  return { api, ...renderRoute(path) };
}

describe('DeclinesPage', () => {
  it('shows your declined requests at /declines, with their reply and no actions', async () => {
    const { api } = open('/declines');
    const list = within(await screen.findByRole('list', { name: 'Declined by others' }));
    expect(list.getByRole('heading', { name: 'Bean Bros' })).toBeInTheDocument();
    expect(list.getByText('Not right now.')).toBeInTheDocument();
    expect(list.getByText('Declined', { selector: '.status-chip' })).toBeInTheDocument();
    expect(list.queryByRole('button')).not.toBeInTheDocument();
    const tabs = within(screen.getByRole('navigation', { name: 'Decline lists' }));
    expect(tabs.getByRole('link', { name: 'Declined by others (2 new)' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls('GET declines?dir=in')).toHaveLength(0);
  });

  it('shows a request nobody answered as Expired, on both sides', async () => {
    signIn();
    const expiredOut = requestItem({ id: 'r3', direction: 'sent', status: 'expired', fromBrand: OAT, toBrand: BEAN });
    const expiredIn = requestItem({ id: 'r4', direction: 'received', status: 'expired', fromBrand: FERN, toBrand: OAT });
    mockApi({
      ...shellRoutes({}),
      'GET declines?dir=out': { items: [expiredOut], nextCursor: null },
      'GET declines?dir=in': { items: [expiredIn], nextCursor: null },
    });
    const { user } = renderRoute('/declines');
    const sent = within(await screen.findByRole('list', { name: 'Expired unanswered' }));
    expect(sent.getByText('Expired', { selector: '.status-chip' })).toBeInTheDocument();
    expect(sent.queryByText(/Expires in/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Declined by you' }));
    // the sent tab's list stays on screen while the received one loads: wait for the received request
    const received = within((await screen.findByText(FERN.name)).closest('ul') as HTMLElement);
    expect(received.getByText('Expired', { selector: '.status-chip' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Expired unanswered' })).toContainElement(received.getByText(FERN.name));
  });

  it('does not list a request that expired unanswered as declined by you (issue 39)', async () => {
    signIn();
    const expiredIn = requestItem({ id: 'r4', direction: 'received', status: 'expired', fromBrand: BEAN, toBrand: OAT });
    mockApi({
      ...shellRoutes({}),
      'GET declines?dir=in': { items: [expiredIn, inbound], nextCursor: null },
    });
    renderRoute('/declines/in');
    const declined = within(await screen.findByRole('list', { name: 'Declined by you' }));
    expect(declined.getAllByRole('article')).toHaveLength(1);
    expect(declined.getByRole('heading', { level: 3, name: 'Wild Fern Candles' })).toBeInTheDocument();
    const expired = within(screen.getByRole('list', { name: 'Expired unanswered' }));
    expect(expired.getByRole('heading', { level: 3, name: 'Bean Bros' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Expired unanswered' })).toBeInTheDocument();
    expect(screen.getByText(/You didn't answer these within 14 days, so they expired/)).toBeInTheDocument();
  });

  it('switches to the ones you declined', async () => {
    const { user, api } = open('/declines/out');
    await screen.findByRole('list', { name: 'Declined by others' });
    await user.click(screen.getByRole('link', { name: 'Declined by you' }));
    const list = within(await screen.findByRole('list', { name: 'Declined by you' }));
    expect(list.getByRole('heading', { name: 'Wild Fern Candles' })).toBeInTheDocument();
    expect(api.calls('GET declines?dir=in')).toHaveLength(1);
  });
});
