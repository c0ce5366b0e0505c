import { expect, test } from './fixtures';
import { DEMO, signIn } from './members';

test('a member browses collab ideas, filters, opens one and copies its template, then marks a video guide watched', async ({
  page,
  a11y,
}) => {
  test.setTimeout(120_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, DEMO);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // The demo member has done the tips tour: no popup over the dashboard.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collab Ideas' }).click();
  await expect(page).toHaveTitle('Tandem Hub: Collab Ideas');
  const ideas = page.getByRole('list', { name: 'Collab ideas' });
  await expect(page.getByRole('status').filter({ hasText: 'ideas' })).toHaveText('26 ideas');
  await expect(ideas.locator('.idea-card')).toHaveCount(26);

  await page.getByRole('combobox', { name: 'Effort' }).selectOption('minimal');
  await expect(page).toHaveURL(/effort=minimal/);
  // The address changes before the list re-renders (the router navigates in a transition):
  // read the count once the status says the list is filtered, then check the cards match it.
  const status = page.getByRole('status').filter({ hasText: 'ideas' });
  await expect(status).toHaveText(/^\d+ of 26 ideas$/);
  const minimal = Number(((await status.textContent()) ?? '').split(' ')[0]);
  expect(minimal).toBeGreaterThan(0);
  expect(minimal).toBeLessThan(26);
  await expect(ideas.locator('.idea-card')).toHaveCount(minimal);

  const first = ideas.locator('.idea-card').first().getByRole('button');
  const title = (await first.textContent()) ?? '';
  await first.click();
  const idea = page.getByRole('dialog', { name: title });
  await expect(idea.getByRole('heading', { name: 'When it works' })).toBeVisible();
  await expect(idea.getByRole('heading', { name: 'Template' })).toBeVisible();
  await a11y.check(page);
  await idea.getByRole('button', { name: 'Copy template' }).click();
  await expect(idea.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('[');
  await idea.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/effort=minimal$/);

  // Video Guides: a guide recorded from the app plays in the page's own player (no third-party
  // frame), with its outline under it, and can be marked watched without playing it to the end.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Video Guides' }).click();
  const guides = page.getByRole('dialog', { name: 'Video Guides' });
  await guides.getByRole('button', { name: 'Getting started with Tandem' }).click();
  const guide = page.getByRole('dialog', { name: 'Getting started with Tandem' });
  await expect(guide.getByLabel('Video: Getting started with Tandem')).toBeVisible();
  await expect(guide.getByRole('heading', { name: 'In this video' })).toBeVisible();
  await expect(guide.locator('iframe')).toHaveCount(0);
  await a11y.check(page);
  await guide.getByRole('button', { name: 'Mark as watched' }).click();
  await expect(guide.getByText('Watched', { exact: true })).toBeVisible();
  await guide.getByRole('button', { name: 'Close', exact: true }).click();

  // Saved on the server: after a reload the list still marks it.
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Video Guides' }).click();
  const card = page
    .getByRole('list', { name: 'Video guides' })
    .getByRole('listitem')
    .filter({ hasText: 'Getting started with Tandem' });
  await expect(card.getByText('Watched', { exact: true })).toBeVisible();
});
