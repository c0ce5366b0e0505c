import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { closeFirstVisitPopups, DEMO, newMember, signIn } from './members';

// A seeded brand that hides its name (infra/local/seed.py's population: its draw hides it).
const HIDDEN_NAME = 'Amber Loom';

const results = (page: Page) => page.getByRole('list', { name: 'Search results' }).getByRole('article');

async function search(page: Page, words: string) {
  await page.getByRole('searchbox').fill(words);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('demo@ finds a brand despite a typo, narrows, pages, opens a result and comes back', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await closeFirstVisitPopups(page);
  await page.goto('/matches');
  await page.getByRole('navigation', { name: 'Match lists' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/matches\/search$/);

  // Each page on screen is handed back as what demo@'s brand was shown (what matching learns from).
  const kept: Promise<{ status: number; body: unknown }>[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/brands/search/views') && r.request().method() === 'POST') {
      // A body the browser no longer holds is reported as such, never a rejection that would
      // fail every later look at `kept`.
      kept.push(r.json().then((body: unknown) => ({ status: r.status(), body }), (error: unknown) => ({ status: r.status(), body: String(error) })));
    }
  });
  await search(page, 'northwnd');
  await expect(page).toHaveURL(/\?q=northwnd$/);
  await expect.poll(async () => (await Promise.all(kept)).map((k) => JSON.stringify(k))).toContain(JSON.stringify({ status: 200, body: { kept: 1 } }));
  const northwind = results(page).filter({ hasText: 'Northwind Outdoor' });
  await expect(northwind).toHaveCount(1);
  await expect(northwind.getByText(/^(Great fit|Good fit|Worth a look)$/)).toBeVisible(); // its fit, as on Matches
  await expect(northwind.getByRole('button', { name: 'Save Northwind Outdoor' })).toBeVisible();

  // Narrow by category: more than a page of outdoors brands; the next page comes below.
  await search(page, '');
  await expect(page).toHaveURL(/\/matches\/search$/); // the words are gone before the category is chosen
  await page.getByRole('combobox', { name: 'Category' }).selectOption('outdoors');
  await expect(page).toHaveURL(/\?category=outdoors$/);
  await expect(results(page)).toHaveCount(20);
  await page.getByRole('button', { name: 'Show more brands' }).click();
  await expect.poll(() => results(page).count()).toBeGreaterThan(20);
  // The search's pages so far (northwnd's and the outdoors brands' two at least), all kept.
  await expect.poll(async () => (await Promise.all(kept)).length).toBeGreaterThanOrEqual(3);
  expect((await Promise.all(kept)).every((k) => k.status === 200)).toBe(true);
  for (const category of await results(page).locator('.match-card__category').allTextContents()) {
    expect(category).toBe('outdoors');
  }

  // ...and by country.
  await page.getByRole('combobox', { name: 'Country' }).selectOption('GB');
  await expect(page).toHaveURL(/\?category=outdoors&country=GB$/);
  const found = page.getByText(/^\d+ brands? found$/);
  await expect(found).toBeVisible();
  const narrowed = await found.textContent();
  const count = await results(page).count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(20);

  // Open a result, then come back to the same results with the back button.
  const first = results(page).first();
  const name = (await first.getByRole('heading').textContent()) ?? '';
  await first.getByRole('link', { name: /View brand/ }).click();
  await expect(page).toHaveURL(/\/matches\/brand\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/matches\/search\?category=outdoors&country=GB$/);
  await expect(page.getByText(narrowed ?? '')).toBeVisible();
  await expect(results(page)).toHaveCount(count);
  await expect(results(page).first().getByRole('heading')).toHaveText(name);
  await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('GB');

  // A subscriber cannot find a brand that hides its name by that name either.
  await search(page, HIDDEN_NAME);
  await expect(page.getByText('No brands match your search')).toBeVisible();
});

// A member without a subscription, as free@ is when seeded: signed up here, because
// payments.spec.ts subscribes free@ on the same worker's stack (tests/e2e/README.md's rule).
test('a member without a subscription sees masked results and cannot find a hidden-name brand by its name', async ({ page, request }) => {
  test.setTimeout(90_000);
  const member = await newMember(request, {
    name: 'Nell Nosub',
    email: `nell.${Date.now()}@example.com`,
    password: 'Tandem-Search-2026',
    brand: 'Nell Notebooks',
  });
  await signIn(page, member);
  await closeFirstVisitPopups(page);
  await page.goto('/matches/search?q=outdoors');
  await expect(page.getByText('Brand names are hidden.')).toBeVisible();
  await expect(results(page).first()).toBeVisible();
  for (const heading of await results(page).getByRole('heading').allTextContents()) {
    expect(heading).toBe('An outdoors brand');
  }
  await expect(results(page).locator('img.brand-logo')).toHaveCount(0);

  await search(page, HIDDEN_NAME);
  await expect(page).toHaveURL(/\?q=Amber\+Loom$/);
  await expect(page.getByText('No brands match your search')).toBeVisible();
  await expect(results(page)).toHaveCount(0);
});
