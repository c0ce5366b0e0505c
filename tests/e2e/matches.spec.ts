import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { closeFirstVisitPopups, DEMO, FREE, signIn } from './members';

// A 1 x 1 PNG: a real image for the logo upload (presigned POST straight to storage).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The match cards on the current Matches list. */
const cards = (page: Page) => page.getByRole('list', { name: /Potential matches|Saved matches/ }).getByRole('article');

test('a member completes a brand profile, gets matches with reasons, saves, dismisses and undoes, opens a brand', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // demo@ keeps the brands of earlier runs on the same stack (--repeat-each): each run adds its own.
  const brand = `Fig & Fern Tea ${test.info().repeatEachIndex + 1}.${test.info().retry}`;
  await signIn(page, DEMO);
  await closeFirstVisitPopups(page);

  // Complete a brand profile.
  await page.goto('/account/brands');
  await page.getByRole('button', { name: 'Add brand' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add a brand' })).toBeVisible();
  await page.getByLabel('Brand name', { exact: true }).fill(brand);
  await page.getByLabel('Logo (optional)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'Preview of your new logo' })).toBeVisible();
  await page.getByLabel('Website (optional)').fill('http://figfern.example');
  await page.getByLabel('Description (optional)').fill('Loose-leaf teas blended in small batches.');
  await page.getByLabel('Category', { exact: true }).selectOption('food & drink');
  await page.getByLabel('Company size (optional)').selectOption('1-10');
  // The niche list is the chosen category's.
  await page.getByLabel('Niche (optional)').selectOption('coffee & tea');
  await page.getByLabel('Price tier (optional)').selectOption('premium');
  await page.getByRole('checkbox', { name: '25-34' }).check();
  await page.getByRole('checkbox', { name: 'women' }).check();
  await page.getByRole('searchbox', { name: 'Find a country' }).fill('United King');
  await page.getByRole('checkbox', { name: 'United Kingdom' }).check();
  await page.getByRole('checkbox', { name: 'sustainable' }).check();
  await page.getByRole('checkbox', { name: 'giveaways' }).check();
  await page.getByRole('checkbox', { name: 'newsletter swaps' }).check();
  await page.getByLabel('Contact email (optional)').fill('hello@figfern.example');

  // The SPEC's URL rule is checked before anything is sent.
  await page.getByRole('button', { name: 'Add brand' }).click();
  await expect(page.getByLabel('Website (optional)')).toHaveAccessibleDescription('Must start with https://');
  await page.getByLabel('Website (optional)').fill('https://figfern.example');
  await page.getByRole('button', { name: 'Add brand' }).click();

  await expect(page.getByText(`${brand} is added`)).toBeVisible();
  await expect(page.getByText("We're finding matches for it now")).toBeVisible();
  const added = page.getByRole('list', { name: 'Your brands' }).getByRole('listitem').filter({ hasText: brand });
  await expect(added.locator('img.brand-logo')).toHaveAttribute('src', /\/assets\/logos\//);

  // Work as the new brand: the brand switcher follows.
  await page.getByRole('button', { name: `Work as ${brand}` }).click();
  await expect(page.getByLabel('Brand', { exact: true })).toHaveValue(/\d+/);
  await expect(page.getByLabel('Brand', { exact: true }).locator('option:checked')).toHaveText(brand);

  // The match run finishes and matches with reasons appear.
  await page.goto('/matches');
  await expect(page.getByRole('heading', { level: 1, name: 'Matches' })).toBeVisible();
  await expect(page.getByText(`Brands that fit ${brand}, and why.`)).toBeVisible();
  await expect(cards(page).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Find new matches' }).first()).toBeEnabled({ timeout: 60_000 });
  const first = cards(page).first();
  // The fit label, no raw percent (the score is not a probability), and, on a fresh deployment
  // without requests to back one, no promise.
  await expect(first.getByText(/^(Great fit|Good fit|Worth a look)$/)).toBeVisible();
  await expect(first.locator('.fit__promise')).toHaveCount(0);
  await expect(first.getByText(/\d+%/)).toHaveCount(0);
  await expect(first.locator('.reasons li').first()).toHaveText(/\S/);
  expect(await cards(page).count()).toBeGreaterThan(2);

  // Save one: that card says so and it shows in Saved.
  const firstName = (await first.locator('h3').textContent())?.trim() ?? '';
  const chosen = cards(page).filter({ has: page.getByRole('heading', { name: firstName, exact: true }) });
  await chosen.getByRole('button', { name: `Save ${firstName}` }).click();
  await expect(chosen.getByText('Saved', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Saved 1' })).toBeVisible();
  // The server has it (the button is no longer busy), and the lists are asked for again: the
  // count below is of the lists as they are now (one read while the run stored its matches
  // may have held only some of them).
  await expect(chosen.getByRole('button', { name: `Unsave ${firstName}` })).toBeEnabled();
  await expect(page.getByRole('list', { name: 'Potential matches' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('link', { name: 'Saved 1' })).toBeVisible();

  // Dismiss another and undo.
  const before = await cards(page).count();
  const second = cards(page).nth(1);
  const secondHref = await second.locator('h3 a').getAttribute('href');
  await second.getByRole('button', { name: /^Dismiss / }).click();
  await expect(page.getByText(/You dismissed .*It won't be suggested again\./)).toBeVisible();
  await expect(cards(page)).toHaveCount(before - 1);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(cards(page)).toHaveCount(before);
  // Back in its place.
  await expect(cards(page).nth(1).locator('h3 a')).toHaveAttribute('href', secondHref ?? '');
  await expect(page.getByText(/You dismissed/)).toBeHidden();

  // The dismissal was undone on the server too: a fresh load still lists it.
  await page.reload();
  await expect(cards(page)).toHaveCount(before);

  // Open a brand.
  await page.getByRole('link', { name: 'Saved 1' }).click();
  await expect(cards(page)).toHaveCount(1);
  await cards(page).first().getByRole('link', { name: /^View brand/ }).click();
  await expect(page).toHaveURL(/\/matches\/brand\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: firstName })).toBeVisible();
  await expect(page.getByRole('region', { name: 'How you fit' }).locator('.reasons li').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Unsave / })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Details' }).getByText('Niche', { exact: true })).toBeVisible();

  // The new brand's own page shows its niche and price tier.
  await page.goto('/account/brands');
  await page.getByRole('list', { name: 'Your brands' }).getByRole('link', { name: `Preview ${brand}` }).click();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('coffee & tea')).toBeVisible();
  await expect(details.getByText('premium')).toBeVisible();
});

test('a member without a subscription sees brand names masked in Matches', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, FREE);
  await closeFirstVisitPopups(page);
  await page.goto('/matches');
  await expect(page.getByRole('heading', { level: 1, name: 'Matches' })).toBeVisible();
  const empty = page.getByRole('region', { name: 'No matches yet' });
  const list = page.getByRole('list', { name: 'Potential matches' });
  await expect(empty.or(list)).toBeVisible({ timeout: 30_000 });
  if (await empty.isVisible()) await empty.getByRole('button', { name: 'Find new matches' }).click();
  await expect(cards(page).first()).toBeVisible({ timeout: 60_000 });

  const masked = cards(page).filter({ has: page.locator('.brand-name--masked') });
  await expect(masked.first()).toBeVisible();
  expect(await masked.count()).toBe(await cards(page).count());
  await expect(masked.first().getByRole('link', { name: /^An? .+ brand$/ })).toBeVisible();
  // It opens the plans over the page (checkout comes back to Matches).
  await masked.first().getByRole('button', { name: 'Subscribe to see brand names' }).click();
  await expect(page.getByRole('dialog').getByRole('link', { name: /^Buy now: Tandem membership, Monthly/ })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByText('Some brand names are hidden.')).toBeVisible();

  // The brand page keeps the name masked too.
  await masked.first().getByRole('link', { name: /^View brand/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveClass(/brand-name--masked/);
});
