import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { authed, memberPage, newMember, outbox, subscribeMonthly, type MemberWithBrands } from './members';
import { WIDTHS } from './widths';

/**
 * Issue 41, on the local stack: two connected brands plan a collaboration from a collab idea,
 * the other side moves its dates once, the first agrees; they tick the checklist and write in the
 * thread (the email and the push arrive at the local stand-ins); the clock moves past the end
 * (POST /__local/clock: the collaborations' dates read the same clock there); both record results;
 * the performance page, its CSV and the calendar feed show them; a block ends a proposed one and a
 * stranger gets 404. Named to sort last: it moves its stack's clock (and puts it back).
 * Screenshots of each screen at 1280 and 375 px go to $H41_SHOTS when it is set.
 */

const stamp = Date.now();
const SHOTS = process.env.H41_SHOTS;
const DAY = 86_400;
const SHARED = 'A candlelit supper club: our oat drinks and their candles, forty seats, sold out twice.';

function who(name: string, brand: string) {
  return {
    name,
    email: `${name.split(' ')[0]!.toLowerCase()}.${stamp}@example.com`,
    password: 'Tandem-Collab-2026',
    brand,
  };
}

function day(offsetDays: number): string {
  const at = new Date(Date.now() + offsetDays * DAY * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

async function api(request: APIRequestContext, member: MemberWithBrands, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const answer = await request.fetch(`/api/${path}`, { method, headers: authed(member.token, member.brandId), data });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  return answer;
}

async function connect(request: APIRequestContext, a: MemberWithBrands, b: MemberWithBrands): Promise<void> {
  const sent = await api(request, a, 'POST', 'requests', { toBrandId: b.brandId, message: 'Shall we plan a supper club?' });
  const { request: made } = (await sent.json()) as { request: { id: string } };
  await api(request, b, 'POST', `requests/${made.id}/accept`);
}

/** B's browser subscribed at the local push stand-in, Collaborations by push on. */
async function pushOn(request: APIRequestContext, member: MemberWithBrands): Promise<string> {
  const { push } = (await (await request.get('/__local/services')).json()) as { push: string };
  const { publicKey } = (await (await api(request, member, 'GET', 'browser-notifications/vapid-public-key')).json()) as {
    publicKey: string;
  };
  const made = await request.post(`${push}/_fake/subscriptions`, { data: { applicationServerKey: publicKey } });
  expect(made.status()).toBe(201);
  await api(request, member, 'POST', 'browser-notifications/subscribe', await made.json());
  await api(request, member, 'PUT', 'notifications/user', { collaborations: { email: true, browser: true } });
  return push;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} at ${size.width}`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('two brands plan, change, agree, run and measure a collaboration; a block ends a proposed one', async ({
  browser,
  request,
  a11y,
}) => {
  test.setTimeout(300_000);
  const a = await newMember(request, who('Olive Oat', `Olive Oats ${stamp % 10_000}`));
  const b = await newMember(request, who('Fern Wick', `Fern Candles ${stamp % 10_000}`));
  await subscribeMonthly(request, a);
  await connect(request, a, b);
  const push = await pushOn(request, b);

  // The brand page of a connection offers the same propose flow, with that brand chosen
  const pageA = await memberPage(browser, a11y, a);
  await pageA.goto(`/brand/${b.brandId}`);
  await pageA.getByRole('link', { name: `Plan a collaboration with ${b.brand}` }).click();
  await expect(pageA).toHaveTitle('Tandem Hub: Plan a collaboration');
  await expect(pageA.getByRole('combobox', { name: 'With' })).toHaveValue(String(b.brandId));

  // A plans from a collab idea: its template and checklist come with it
  await pageA.goto('/inspiration/ideas?idea=joint-event');
  await pageA.getByRole('dialog').getByRole('link', { name: 'Plan this with a connection' }).click();
  await expect(pageA).toHaveTitle('Tandem Hub: Plan a collaboration');
  await expect(pageA.getByRole('combobox', { name: 'Collab idea (optional)' })).toHaveValue('joint-event');
  await pageA.getByRole('combobox', { name: 'With' }).selectOption(String(b.brandId));
  await pageA.getByRole('combobox', { name: 'Format' }).selectOption('events');
  await pageA.getByRole('textbox', { name: 'Title' }).fill('A candlelit supper club');
  await pageA.getByRole('textbox', { name: 'What you bring' }).fill('Oat drinks and the venue');
  await pageA.getByRole('textbox', { name: 'What they bring' }).fill('Candles for every table');
  await pageA.getByLabel('Start', { exact: true }).fill(day(3));
  await pageA.getByLabel('End', { exact: true }).fill(day(4));
  await shot(pageA, 'collab-plan');
  await pageA.getByRole('button', { name: 'Propose the plan' }).click();
  await expect(pageA.getByRole('heading', { level: 1, name: 'A candlelit supper club' })).toBeVisible();
  await expect(pageA.getByText(`Waiting for ${b.brand} to answer.`)).toBeVisible();
  const id = new URL(pageA.url()).pathname.split('/').pop()!;
  await expect(pageA.getByRole('checkbox', { name: 'Agree: Date and time' })).toBeVisible();

  // B moves the dates once
  const pageB = await memberPage(browser, a11y, b);
  await pageB.goto('/collaborations');
  await expect(pageB.getByText('Your turn')).toBeVisible();
  await pageB.getByRole('link', { name: 'A candlelit supper club' }).click();
  await pageB.getByRole('button', { name: 'Propose changes' }).click();
  await pageB.getByLabel('Start', { exact: true }).fill(day(4));
  await pageB.getByLabel('End', { exact: true }).fill(day(5));
  await pageB.getByRole('button', { name: 'Send the changes' }).click();
  await expect(pageB.getByText(`Waiting for ${a.brand} to answer.`)).toBeVisible();

  // A sees the change and agrees
  await pageA.reload();
  await expect(pageA.getByText(/^Start: .* → /)).toBeVisible();
  await pageA.getByRole('button', { name: 'Accept the plan' }).click();
  await expect(pageA.locator('.status-chip', { hasText: 'Agreed' })).toBeVisible();

  // B ticks an item, A writes: B's email and push arrive
  await pageB.reload();
  await pageB.getByRole('checkbox', { name: 'Agree: Date and time' }).check();
  await expect(pageB.getByText('ticked by you')).toBeVisible();
  await pageA.getByRole('textbox', { name: `Message to ${b.brand}` }).fill('Shall we do 40 seats?');
  await pageA.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(pageA.getByText('Shall we do 40 seats?')).toBeVisible();
  await shot(pageA, 'collab-detail');
  await expect
    .poll(async () => (await outbox(request)).some((m) => m.to === b.email && m.subject === `${a.brand} wrote about: A candlelit supper club`), {
      message: "B's email about A's message",
      timeout: 20_000,
    })
    .toBe(true);
  await expect
    .poll(
      async () => {
        const arrived = (await (await request.get(`${push}/_fake/messages`)).json()) as { payload: string }[];
        return arrived.map((m) => (JSON.parse(m.payload) as { title: string }).title);
      },
      { message: "B's push about A's message", timeout: 20_000 },
    )
    .toContain(`${a.brand} wrote about`);

  // Past the end: both record results
  const moved = await request.post('/__local/clock', { data: { advanceSeconds: 7 * DAY } });
  expect(moved.ok()).toBe(true);
  try {
    await pageA.reload();
    await expect(pageA.locator('.status-chip', { hasText: 'Ended' })).toBeVisible();
    await pageA.getByRole('textbox', { name: 'Reach (optional)' }).fill('12000');
    await pageA.getByRole('textbox', { name: 'Orders or sign-ups (optional)' }).fill('41');
    await pageA.getByRole('textbox', { name: 'Revenue (optional)' }).fill('1250.50');
    await pageA.getByRole('combobox', { name: 'Would you partner with them again?' }).selectOption('yes');
    await pageA.getByRole('combobox', { name: 'How did it go, from 1 to 5?' }).selectOption('5');
    await pageA.getByRole('button', { name: 'Save your results' }).click();
    await expect(pageA.getByText(`${b.brand} has recorded theirs`)).toHaveCount(0);
    await expect(pageA.getByText(/Not recorded yet/)).toBeVisible();
    await api(request, b, 'PUT', `collaborations/${id}/results`, { reach: 8000, again: true, rating: 4 });
    await pageA.reload();
    await expect(pageA.locator('.status-chip', { hasText: 'Results in' })).toBeVisible();
    await expect(pageA.getByRole('heading', { name: `What ${b.brand} saw` })).toBeVisible();
    await expect(pageA.getByText('8K')).toBeVisible();
    await shot(pageA, 'collab-results');

    // A shares the finished collaboration with its reach and revenue; B agrees on the
    // connection's share panel, allowing its reach only: Member collabs shows the reach of both
    const sharePanelA = pageA.getByRole('region', { name: 'Member collabs' });
    await sharePanelA.getByRole('button', { name: 'Share this collaboration' }).click();
    await sharePanelA.getByRole('textbox', { name: /What did you do together/ }).fill(SHARED);
    await sharePanelA.getByRole('checkbox', { name: 'Reach' }).check();
    await sharePanelA.getByRole('checkbox', { name: 'Revenue' }).check();
    await sharePanelA.getByRole('button', { name: `Ask ${b.brand} to agree` }).click();
    await expect(sharePanelA.getByText(`Waiting for ${b.brand} to agree to share this collab.`)).toBeVisible();
    await pageB.goto(`/connections/${b.brandId}/${a.brandId}`);
    const sharePanelB = pageB.getByRole('region', { name: 'Member collabs' });
    await expect(sharePanelB.getByText(`${a.brand} would like to show this collab to other members.`, { exact: false })).toBeVisible();
    await expect(sharePanelB.getByText('Collaboration: A candlelit supper club')).toBeVisible();
    await sharePanelB.getByRole('checkbox', { name: 'Reach' }).check();
    await shot(pageB, 'collab-share-agree');
    await sharePanelB.getByRole('button', { name: 'Agree and share' }).click();
    await expect(sharePanelB.getByText('Figures shown: Reach')).toBeVisible();
    await shot(pageB, 'collab-share-shared');
    await pageB.goto('/inspiration/member-collabs');
    const listed = pageB.getByRole('table', { name: 'Results of A candlelit supper club' });
    await expect(listed.getByRole('row', { name: /Reach/ })).toContainText('12K');
    await expect(listed.getByRole('row', { name: /Revenue/ })).toHaveCount(0);
    await shot(pageB, 'member-collabs-shared');

    // The performance page and its CSV
    await pageA.goto('/collaborations');
    await expect(pageA).toHaveTitle('Tandem Hub: Collaborations');
    await expect(pageA.getByRole('heading', { name: 'Results in (1)' })).toBeVisible();
    await expect(pageA.getByText('£1,250.50', { exact: true }).first()).toBeVisible();
    await expect(pageA.getByRole('table', { name: 'By partner' }).getByRole('rowheader', { name: b.brand })).toBeVisible();
    await expect(pageA.getByRole('img', { name: 'Reach by format' })).toBeVisible();
    await shot(pageA, 'collab-performance');
    const csv = await (await api(request, a, 'GET', 'collaborations/export')).text();
    expect(csv).toContain('A candlelit supper club');
    expect(csv).toContain('12000');
    expect(csv).toContain('1250.50');

    // The calendar feed lists it
    const feed = (await (await api(request, a, 'POST', 'collaborations/calendar-feed')).json()) as { feed: { url: string } };
    const ics = await request.get(new URL(feed.feed.url).pathname);
    expect(ics.status()).toBe(200);
    expect(ics.headers()['content-type']).toContain('text/calendar');
    expect((await ics.text()).replace(/\r\n /g, '')).toContain(`SUMMARY:A candlelit supper club (with ${b.brand})`);
  } finally {
    await request.post('/__local/clock', { data: { reset: true } });
  }

  // A stranger gets 404 on the collaboration
  const stranger = await newMember(request, who('Sam Stranger', `Sam Soaps ${stamp % 10_000}`));
  for (const [method, path] of [
    ['GET', `collaborations/${id}`],
    ['POST', `collaborations/${id}/messages`],
    ['PUT', `collaborations/${id}/results`],
  ] as const) {
    const answer = await request.fetch(`/api/${path}`, { method, headers: authed(stranger.token, stranger.brandId), data: { text: 'hi', again: true, rating: 5 } });
    expect(answer.status(), `${method} ${path}`).toBe(404);
  }

  // A block ends a proposed one (A reads why; B, the blocker, no longer sees it)
  const second = (await (
    await api(request, a, 'POST', 'collaborations', {
      otherBrandId: b.brandId,
      format: 'giveaways',
      title: 'A spring giveaway',
      bringsMine: 'Oat hampers',
      bringsTheirs: 'Candle sets',
      goal: 'reach',
      start: day(10),
      end: day(20),
    })
  ).json()) as { collaboration: { id: string } };
  await api(request, b, 'POST', `brands/${a.brandId}/block`, {});
  await pageA.goto(`/collaborations/${second.collaboration.id}`);
  await expect(pageA.getByText('Cancelled: The other brand is no longer available.')).toBeVisible();
  await pageB.goto('/collaborations');
  await expect(pageB.getByRole('link', { name: 'A spring giveaway' })).toHaveCount(0);
});
