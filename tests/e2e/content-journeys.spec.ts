import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MAKER, memberPage, PARTNER, signIn } from './members';

/**
 * Issue 15, the rest of Collab Ideas and Video Guides: the calendar leads to the ideas for a
 * moment; a connection is shared under Member collabs once both brands agree; a page's Guide
 * button plays its guide and marks it watched. The journeys use maker@ and partner@tandem.local
 * (infra/local/seed.py: connected with each other and nobody else), so the other demo users
 * are left as the later specs expect. They leave maker's and partner's collab shared and
 * maker's "From connection to collaboration" guide watched.
 */

const SUMMARY =
  'A gift set for Christmas: one of our handmade soap dishes with two Sea Salt bars, sold on both shops. 120 sets sold in three weeks.';

async function openConnection(page: Page, other: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await page.getByRole('link', { name: `Open connection with ${other}` }).click();
  await expect(page).toHaveTitle('Tandem Hub: Connection');
  return page.getByRole('region', { name: 'Member collabs' });
}

test('a member opens the calendar and follows a moment to the ideas that suit it', async ({ page }) => {
  await signIn(page, MAKER);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collab Ideas' }).click();
  await page.getByRole('navigation', { name: 'Collab Ideas sections' }).getByRole('link', { name: 'Calendar' }).click();
  await expect(page).toHaveTitle('Tandem Hub: Collab calendar');

  // What is coming up, the next first, each with its lead time.
  const upcoming = page.getByRole('list', { name: 'Moments coming up' });
  const first = upcoming.locator('.moment-card').first();
  await expect(first.getByText(/^Plan \d+ weeks ahead$/)).toBeVisible();
  const name = (await first.getByRole('heading', { level: 3 }).textContent()) ?? '';
  const ideaNames = await first.getByRole('list', { name: `Ideas for ${name}` }).getByRole('link').allTextContents();
  expect(ideaNames.length).toBeGreaterThan(0);

  await first.getByRole('link', { name: `See the ${ideaNames.length} ideas for ${name}` }).click();
  await expect(page).toHaveURL(/\/inspiration\/ideas\?moment=/);
  await expect(page.getByRole('note', { name: `Ideas for ${name}` })).toBeVisible();
  const ideas = page.getByRole('list', { name: 'Collab ideas' });
  await expect(ideas.locator('.idea-card')).toHaveCount(ideaNames.length);
  expect((await ideas.getByRole('heading', { level: 2 }).allTextContents()).sort()).toEqual([...ideaNames].sort());
  await expect(page.getByRole('status').filter({ hasText: 'ideas' })).toHaveText(`${ideaNames.length} of 26 ideas`);

  // The whole year, month by month, for the UK only.
  await page.getByRole('link', { name: 'Back to the calendar' }).click();
  await page.getByRole('combobox', { name: 'Country' }).selectOption('GB');
  await page.getByRole('button', { name: 'Whole year' }).click();
  await expect(page.getByRole('list', { name: 'Moments in May' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: "Mother's Day (US)" })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 3, name: "Mother's Day (UK)" })).toBeVisible();
});

test('a connection is shown under Member collabs once both brands agree', async ({ page, browser, a11y }) => {
  test.setTimeout(120_000);
  await signIn(page, MAKER);
  const maker = await openConnection(page, PARTNER.brand);
  await maker.getByRole('button', { name: 'Share this collab' }).click();
  await maker.getByRole('textbox', { name: 'What did you do together?' }).fill(SUMMARY);
  await maker.getByRole('combobox', { name: /Which collab idea was it/ }).selectOption({ label: 'Shared product bundle' });
  await maker.getByRole('button', { name: `Ask ${PARTNER.brand} to agree` }).click();
  await expect(maker.getByText(`Waiting for ${PARTNER.brand} to agree to share this collab.`)).toBeVisible();

  // Not listed while only one brand has agreed.
  await page.goto('/inspiration/member-collabs');
  await expect(page.getByRole('heading', { name: 'No member collabs yet' })).toBeVisible();

  // The other brand reads the summary and agrees.
  const partnerPage = await memberPage(browser, a11y, PARTNER);
  const partner = await openConnection(partnerPage, MAKER.brand);
  await expect(partner.getByText(`${MAKER.brand} would like to show this collab to other members`, { exact: false })).toBeVisible();
  await expect(partner.getByText(SUMMARY)).toBeVisible();
  await partner.getByRole('button', { name: 'Agree and share' }).click();
  await expect(partner.getByText(/^Shared under Member collabs since/)).toBeVisible();

  // Listed for both (and any member), with the summary and the idea.
  for (const viewer of [partnerPage, page]) {
    await viewer.goto('/inspiration/member-collabs');
    const item = viewer.getByRole('list', { name: 'Member collabs' }).getByRole('listitem').filter({ hasText: SUMMARY });
    await expect(item.getByRole('heading', { name: `${MAKER.brand} × ${PARTNER.brand}` })).toBeVisible();
    await expect(item.getByRole('link', { name: 'Shared product bundle' })).toBeVisible();
    await expect(item.getByText('Your brand')).toBeVisible();
  }
  await partnerPage.context().close();
});

test.describe('a video guide recorded from the app', () => {
  // The player popup and the pages around it: no moderate accessibility finding either.
  test.use({ a11yLevel: 'moderate' });

  test("a member plays a page's guide from its Guide button to the end, captions on, and sees it marked watched", async ({
    page,
    a11y,
  }) => {
    await signIn(page, MAKER);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
    await expect(page).toHaveTitle('Tandem Hub: Connections');
    await page.getByRole('button', { name: 'Guide: From connection to collaboration' }).click();
    const guide = page.getByRole('dialog', { name: 'From connection to collaboration' });
    await expect(guide.getByRole('heading', { name: 'In this video' })).toBeVisible();
    const video = guide.getByLabel('Video: From connection to collaboration');
    await expect(video).toBeVisible();
    await expect(guide.getByText('Video coming soon')).toHaveCount(0);

    // The recording is served (the local stack serves the assets bucket as CloudFront does) and
    // its captions, the guide's own steps, are on from the start.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.duration > 5)).toBe(true);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => [v.textTracks[0]?.mode, v.textTracks[0]?.cues?.length ?? 0]))
      .toEqual(['showing', 5]);
    const firstCue = await video.evaluate((v: HTMLVideoElement) => (v.textTracks[0]?.cues?.[0] as VTTCue | undefined)?.text);
    await expect(guide.getByRole('listitem').first()).toHaveText(firstCue ?? 'no cue');
    await a11y.check(page);

    // Its controls are the browser's own, reached with the keyboard; playing is not yet watching.
    await video.focus();
    await expect(video).toBeFocused();
    await expect(guide.getByRole('button', { name: 'Mark as watched' })).toBeVisible();

    // Played to the end (from its last second): the member's view is recorded.
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      v.currentTime = Math.max(0, v.duration - 1);
      await v.play();
    });
    await expect(guide.getByText('Watched', { exact: true })).toBeVisible();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended)).toBe(true);
    await guide.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Guide: From connection to collaboration (watched)' })).toBeVisible();

    // Saved on the server: after a reload the button and the Video Guides list still mark it.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Guide: From connection to collaboration (watched)' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Video Guides' }).click();
    const card = page
      .getByRole('list', { name: 'Video guides' })
      .getByRole('listitem')
      .filter({ hasText: 'From connection to collaboration' });
    await expect(card.getByText('Watched', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Video · \d+:\d\d$/)).toBeVisible();
    await a11y.check(page);
  });
});
