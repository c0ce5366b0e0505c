import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FEATURE, signIn } from './members';

/*
 * Feature-only accounts (issue 13): feature@tandem.local buys Pitch Area features only.
 * The part of issue 13's journey where they buy a feature and see Requests and Billing
 * appear once it is live belongs with the Pitch Area (pitch.spec.ts).
 * State: feature@'s name is changed and put back; nothing else of theirs changes.
 */

/** Calls the API as the signed-in member (their token from the app's session). */
async function apiStatus(page: Page, method: string, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ([verb, target]) => {
      const session = JSON.parse(window.localStorage.getItem('tandem.session') ?? '{}') as { accessToken?: string };
      const response = await fetch(`/api/${target}`, {
        method: verb,
        headers: { Authorization: `Bearer ${session.accessToken ?? ''}`, 'Content-Type': 'application/json' },
        body: verb === 'GET' ? undefined : JSON.stringify({ toBrandId: 1, message: 'Hello' }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    [method, path] as const,
  );
}

async function saveName(page: Page, name: string) {
  const field = page.getByLabel('Name', { exact: true });
  await field.fill(name);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name is saved.')).toBeVisible();
  await expect(field).toHaveValue(name);
}

test('a feature-only member has the reduced menu, Pitches Received, no Matches, and their own profile page', async ({
  page,
}) => {
  await signIn(page, FEATURE);

  // The reduced menu (SPEC section 2): no Matches, Connections, Declines, Collab Ideas or Video
  // Guides; no Requests before a feature of theirs has been live; Profile is their own page.
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Pitch Area' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account/profile/');
  for (const hidden of ['Matches', 'Requests', 'Pitches Received', 'Connections', 'Declines', 'Collab Ideas']) {
    await expect(menu.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  await expect(menu.getByRole('button', { name: 'Video Guides' })).toHaveCount(0);

  // Their received requests are 'Pitches Received': no Sent tab, no way to Matches.
  await page.goto('/requests/received');
  await expect(page.getByRole('heading', { level: 1, name: 'Pitches Received' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No pitches yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sent' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to Matches' })).toHaveCount(0);
  await page.goto('/requests/sent');
  await expect(page).toHaveURL(/\/requests\/received$/);

  // Areas their account does not include send them to the dashboard...
  for (const path of ['/matches', '/matches/saved', '/connections', '/declines', '/inspiration']) {
    await page.goto(path);
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(page).toHaveTitle('Tandem Hub: Dashboard');
  }
  // ...and the API refuses them, with a clear message.
  expect(await apiStatus(page, 'GET', 'matches')).toEqual({
    status: 403,
    body: { error: 'Matches are not included in a feature-only account.', code: 'not_in_account' },
  });
  expect((await apiStatus(page, 'POST', 'requests')).status).toBe(403);

  // Profile: their own page; the name changes (and is put back for the specs that follow).
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  const email = page.getByRole('region', { name: 'Email address' });
  await expect(email.getByText(FEATURE.email, { exact: true })).toBeVisible();
  await expect(email.getByText('Confirmed', { exact: true })).toBeVisible();
  await saveName(page, 'Finley Feature');
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Finley Feature');
  await saveName(page, FEATURE.name);
});
