import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { CalendarMoment, CollabCalendar, CollabIdea, CollabList } from '../api/collab';

function moment(slug: string, name: string, date: string, overrides: Partial<CalendarMoment> = {}): CalendarMoment {
  return {
    slug,
    name,
    date,
    end: date,
    when: date,
    countries: ['GB', 'US'],
    description: `What ${name} is about.`,
    leadWeeks: 8,
    lead: 'Plan 8 weeks ahead',
    planFrom: '2026-10-01',
    ideas: ['product-bundle', 'joint-giveaway'],
    ...overrides,
  };
}

const MOVEMBER = moment('movember', 'Movember', '2026-11-01', {
  end: '2026-11-30',
  ongoing: true,
  ideas: ['charity-tie-in'],
  planFrom: '2026-09-06',
});
const CHRISTMAS = moment('christmas', 'Christmas', '2026-12-25', { leadWeeks: 12, lead: 'Plan 12 weeks ahead', planFrom: '2026-10-02' });
const VALENTINES = moment('valentines-day', "Valentine's Day", '2027-02-14', { planFrom: '2026-12-20' });
const MOTHERS_UK = moment('mothering-sunday', "Mother's Day (UK)", '2026-03-15', { countries: ['GB'] });

function months(year: number, moments: CalendarMoment[]) {
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return names.map((name, index) => ({
    month: index + 1,
    name,
    moments: moments.filter((m) => Number(m.date.slice(5, 7)) === index + 1 && Number(m.date.slice(0, 4)) === year),
  }));
}

const TITLES = { 'product-bundle': 'Product bundle', 'joint-giveaway': 'Joint giveaway', 'charity-tie-in': 'Charity tie-in' };

function calendar(overrides: Partial<CollabCalendar> = {}): Record<string, unknown> {
  const body: CollabCalendar = {
    today: '2026-11-23',
    year: 2026,
    years: [2025, 2026, 2027],
    country: null,
    countries: { GB: 'UK', US: 'US' },
    upcoming: [MOVEMBER, CHRISTMAS, VALENTINES],
    months: months(2026, [MOTHERS_UK, MOVEMBER, CHRISTMAS]),
    ideas: TITLES,
    ...overrides,
  };
  return { ...body };
}

function idea(slug: string, title: string): CollabIdea {
  return {
    slug,
    title,
    image: `/collab/${slug}.svg`,
    effort: 'some',
    benefits: ['audience'],
    content: `About ${title}.`,
    examples: [{ image: `/collab/examples/${slug}.svg` }],
    example_title: `An example of ${title}.`,
    template_info: 'Hi [name]',
  };
}

const IDEAS = {
  ideas: [idea('joint-giveaway', 'Joint giveaway'), idea('product-bundle', 'Product bundle'), idea('charity-tie-in', 'Charity tie-in')],
  benefits: { audience: 'Reach a new audience' },
  efforts: { minimal: 'Minimal effort', some: 'Some effort', maximum: 'Maximum effort' },
  total: 26,
} satisfies CollabList;

function open(path = '/inspiration/calendar') {
  signIn();
  const api = mockApi({
    ...shellRoutes(),
    'GET collab/calendar': calendar(),
    'GET collab/calendar?country=GB': calendar({ country: 'GB', upcoming: [MOVEMBER, CHRISTMAS] }),
    'GET collab/calendar?year=2027': calendar({ year: 2027, months: months(2027, [VALENTINES]) }),
    'GET collab': IDEAS,
  });
  return { api, ...renderRoute(path) };
}

const cardTitles = (list: HTMLElement) => within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('CalendarPage', () => {
  it('shows what is coming up first, the next first, with lead times and the ideas that suit each', async () => {
    open();
    const list = await screen.findByRole('list', { name: 'Moments coming up' });
    expect(cardTitles(list)).toEqual(['Movember', 'Christmas', "Valentine's Day"]);
    expect(screen.getByRole('link', { name: 'Calendar' })).toHaveAttribute('aria-current', 'page');

    const [movember, christmas, valentines] = within(list).getAllByRole('listitem').filter((li) => li.classList.contains('moment-card'));
    if (!movember || !christmas || !valentines) throw new Error('three moments expected');
    expect(within(movember).getByText('1st November to 30th November')).toBeInTheDocument();
    expect(within(movember).getByText('Under way now')).toBeInTheDocument();
    expect(within(christmas).getByText('25th December')).toBeInTheDocument();
    expect(within(christmas).getByText('Plan 12 weeks ahead')).toBeInTheDocument();
    expect(within(christmas).getByText('Starts in 32 days: plan now')).toBeInTheDocument();
    // Next year's date carries its year; planning starts in the future.
    expect(within(valentines).getByText('14th February 2027')).toBeInTheDocument();
    expect(within(valentines).getByText('Start planning by 20th December')).toBeInTheDocument();
    expect(within(valentines).getByText('UK')).toBeInTheDocument();
    expect(within(valentines).getByRole('link', { name: 'Product bundle' })).toHaveAttribute(
      'href',
      '/inspiration/ideas?idea=product-bundle',
    );
  });

  it('follows a moment to its ideas: only those, under a note naming the moment', async () => {
    const { user, router, api } = open();
    await user.click(await screen.findByRole('link', { name: "See the 2 ideas for Valentine's Day" }));
    const note = await screen.findByRole('note', { name: "Ideas for Valentine's Day" });
    expect(note).toHaveTextContent("Ideas for Valentine's Day (14th February 2027). Plan 8 weeks ahead.");
    expect(router.state.location.pathname).toBe('/inspiration/ideas');
    const grid = await screen.findByRole('list', { name: 'Collab ideas' });
    expect(within(grid).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Joint giveaway',
      'Product bundle',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 3 ideas');
    expect(api.calls('GET collab/calendar')).toHaveLength(1); // the calendar page's answer is reused

    await user.click(within(note).getByRole('button', { name: 'Show all ideas' }));
    await waitFor(() => {
      expect(within(screen.getByRole('list', { name: 'Collab ideas' })).getAllByRole('heading', { level: 2 })).toHaveLength(3);
    });
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('filters by country and shows the whole year month by month, in the address', async () => {
    const { user, router } = open();
    await screen.findByRole('list', { name: 'Moments coming up' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'UK');
    await waitFor(() => {
      expect(cardTitles(screen.getByRole('list', { name: 'Moments coming up' }))).toEqual(['Movember', 'Christmas']);
    });
    expect(router.state.location.search).toBe('?country=GB');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'UK and US');
    await waitFor(() => {
      expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue(''); // rendered, not only navigated
    });
    await user.click(screen.getByRole('button', { name: 'Whole year' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'January 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Whole year' })).toHaveAttribute('aria-pressed', 'true');
    const march = screen.getByRole('list', { name: 'Moments in March' });
    expect(cardTitles(march)).toEqual(["Mother's Day (UK)"]);
    expect(within(march).getByText('Passed for this year')).toBeInTheDocument();
    expect(screen.getAllByText('No moment marked this month: a good time for evergreen ideas.').length).toBe(9);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Year' }), '2027');
    expect(await screen.findByRole('heading', { level: 2, name: 'February 2027' })).toBeInTheDocument();
    expect(cardTitles(screen.getByRole('list', { name: 'Moments in February' }))).toEqual(["Valentine's Day"]);
    expect(router.state.location.search).toBe('?view=year&year=2027');
  });

  it('says when the calendar cannot load', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET collab/calendar': new Response(JSON.stringify({ error: 'Down' }), { status: 500 }) });
    renderRoute('/inspiration/calendar');
    expect(await screen.findByText("We couldn't load the calendar")).toBeInTheDocument();
  });
});
