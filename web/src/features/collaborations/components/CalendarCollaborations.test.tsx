import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';

const SOON = {
  id: 'c1',
  phase: 'agreed',
  phaseLabel: 'Agreed',
  title: 'Valentine bundle',
  start: '2099-02-01',
  end: '2099-02-14',
  moment: { slug: 'valentines-day', name: "Valentine's Day" },
  partner: { id: 7, name: 'Fern Candles' },
};

describe('The Collab calendar’s collaborations', () => {
  it('lists the collaborations to come and gives a feed link once', async () => {
    signIn();
    const api = mockApi({
      ...shellRoutes(),
      'GET collab/calendar': {
        today: '2099-01-01',
        year: 2099,
        years: [2098, 2099, 2100],
        country: null,
        countries: { GB: 'UK', US: 'US' },
        upcoming: [],
        months: [],
        ideas: {},
      },
      'GET collaborations': { items: [SOON, { ...SOON, id: 'c2', title: 'Old one', end: '2001-01-01' }], totals: {} },
      'GET collaborations/calendar-feed': { feed: { active: false, createdAt: null } },
      'POST collaborations/calendar-feed': {
        feed: { active: true, createdAt: 1, url: 'https://tandem.example/api/calendar/secret.ics' },
      },
    });
    renderRoute('/inspiration/calendar');
    const list = await screen.findByRole('list', { name: 'Your collaborations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('link', { name: 'Valentine bundle' })).toHaveAttribute('href', '/collaborations/c1');
    expect(within(list).getByText(/with Fern Candles · for Valentine's Day/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Get a calendar link' }));
    expect(await screen.findByRole('textbox', { name: /Your feed link/ })).toHaveValue(
      'https://tandem.example/api/calendar/secret.ics',
    );
    expect(api.calls('POST collaborations/calendar-feed')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Turn the link off' })).toBeInTheDocument();
  });
});
