import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { authed, badge, DEMO, logIn, newMember, outbox, signIn, type NewMember } from './members';

/**
 * Named to run last on its worker's stack: moving the jobs' clock 14 days ahead expires every
 * request pending on that stack, the seeded ones other specs show included (tests/e2e/README.md).
 *
 * Issue 28, on the local stack with the scheduler's clock moved ahead (POST /__local/clock;
 * the expire-requests job then runs as if later): demo@ sends a request to a new member's
 * brand (a pair no other spec uses), the receiver gets the day-3 reminder in the outbox,
 * nobody answers, and at day 14 the request expires: demo@'s credits go back up by one, it
 * shows Expired under Declines with no "Expires in" left, and demo@ has the email.
 */

const stamp = Date.now();
const RECEIVER: NewMember = {
  name: 'Quinn Quiet',
  email: `quinn.${stamp}@example.com`,
  password: 'Tandem-Quiet-2026',
  brand: `Quiet Harbour Linen ${stamp}`,
};
const MESSAGE = 'A linen and oat picnic box for the summer?';
const DAY = 86_400;

/** Move the jobs' clock ahead and run the job now, as the hourly schedule would then. */
async function runJobAfter(request: APIRequestContext, seconds: number) {
  const clock = await request.post('/__local/clock', { data: { advanceSeconds: seconds } });
  expect(clock.ok(), await clock.text()).toBeTruthy();
  const run = await request.post('/__local/jobs/expire-requests');
  expect(run.ok(), await run.text()).toBeTruthy();
  // {job, result: the scheduler function's answer {job, result: counts}}
  return ((await run.json()).result.result ?? {}) as Record<string, number>;
}

test.afterAll(async ({ request }) => {
  await request.post('/__local/clock', { data: { reset: true } }); // the next specs run on today
});

test('a request nobody answers is reminded on day 3 and expires on day 14 with its credit back', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const receiver = await newMember(request, RECEIVER);
  const demo = await logIn(request, DEMO);
  const before = (await (await request.get('/api/dashboard', { headers: authed(demo.access_token) })).json()).credits;
  expect(before.available, 'demo@tandem.local needs a credit to spare').toBeGreaterThanOrEqual(1);

  await signIn(page, DEMO);
  await expect(badge(page)).toHaveText(`${before.available}/${before.total} credits`);
  await page.goto(`/matches/brand/${receiver.brandId}?request=1`);
  const dialog = page.getByRole('dialog', { name: /^Connect with / });
  await dialog.getByLabel('Your message').fill(MESSAGE);
  await dialog.getByRole('button', { name: 'Send request', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(badge(page)).toHaveText(`${before.available - 1}/${before.total} credits`);
  await page.goto('/requests/sent');
  const sent = page.getByRole('article').filter({ hasText: MESSAGE });
  await expect(sent.getByText('Expires in 14 days')).toBeVisible();

  // Day 3: the receiver is reminded, with the one-click answers.
  // (the seed's own pending requests are reminded too)
  expect((await runJobAfter(request, 3 * DAY + 60)).reminded).toBeGreaterThanOrEqual(1);
  await expect
    .poll(async () => (await outbox(request)).find((m) => m.to === RECEIVER.email && m.subject.includes('is waiting for your answer')) ?? null, {
      message: 'the day-3 reminder in the outbox',
      timeout: 20_000,
    })
    .not.toBeNull();
  const reminder = (await outbox(request)).find((m) => m.to === RECEIVER.email && m.subject.includes('is waiting for your answer'))!;
  expect(reminder.links.some((link) => link.includes(`/quick-action/accept/${receiver.brandId}/`))).toBe(true);
  expect(reminder.links.some((link) => link.includes(`/quick-action/decline/${receiver.brandId}/`))).toBe(true);

  // Day 14: nobody answered. The request expires and the credit comes back.
  expect((await runJobAfter(request, 11 * DAY)).expired).toBeGreaterThanOrEqual(1);
  await page.goto('/declines');
  const expired = page.getByRole('list', { name: 'Expired unanswered' }).getByRole('article').filter({ hasText: MESSAGE });
  await expect(expired.getByText('Expired', { exact: true }).first()).toBeVisible();
  await expect(expired.getByText(/Expires in/)).toHaveCount(0);
  await expect(badge(page)).toHaveText(`${before.available}/${before.total} credits`);
  await expect
    .poll(async () => (await outbox(request)).some((m) => m.to === DEMO.email && m.subject.endsWith("didn't reply in 14 days; your credit is back")), {
      message: "the sender's expiry email in the outbox",
      timeout: 20_000,
    })
    .toBe(true);
});
