import { expect, test } from './fixtures';

test('a visitor opening the app lands on the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\/?\?redirect=/);
  await expect(page).toHaveTitle('Tandem Hub: Login');
  await expect(page.getByRole('heading', { name: 'Sign in to Tandem' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});

test('the API answers on the same origin as the app', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(health.ok()).toBeTruthy();
  expect(await health.json()).toMatchObject({ status: 'ok' });
});

test('an unknown address shows the not-found page', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page).toHaveTitle('Tandem Hub: Page not found');
});
