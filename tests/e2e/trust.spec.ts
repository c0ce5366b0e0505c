import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, authed, credits, memberPage, newMember, subscribeMonthly, type Member, type NewMember } from './members';

/**
 * Issue 27, against the local stack: a member blocks a brand that had sent them a request (the
 * sender's credit comes back, neither sees the other any more), then unblocks it; a member
 * reports a brand; admin@ suspends it from the Reports queue (it disappears from every list and
 * page) and lifts the suspension. Every member here is made by the test, so no other spec's
 * seeded data moves.
 */

const stamp = Date.now();
const who = (name: string, brand: string): NewMember => ({
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}.${stamp}@example.com`,
  password: 'Tandem-Trust-2026',
  brand,
});

async function sendRequest(request: APIRequestContext, from: Member, to: Member): Promise<string> {
  const sent = await request.post('/api/requests', {
    headers: authed(from.token, from.brandId),
    data: { toBrandId: to.brandId, message: 'Shall we run a spring giveaway together?' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  return ((await sent.json()) as { request: { id: string } }).request.id;
}

async function brandPageStatus(request: APIRequestContext, viewer: Member, other: Member): Promise<number> {
  return (await request.get(`/api/brand/${other.brandId}`, { headers: authed(viewer.token, viewer.brandId) })).status();
}

test('a member blocks a brand that sent them a request, the credit goes back, then unblocks it', async ({ browser, request, a11y }) => {
  test.setTimeout(180_000);
  const ivy = await newMember(request, who('Ivy Block', 'Ivy Lane Jams'));
  const rex = await newMember(request, who('Rex Sender', 'Rex Roasters'));
  await subscribeMonthly(request, rex);
  const requestId = await sendRequest(request, rex, ivy);
  expect((await credits(request, rex)).available).toBe(5);

  const page = await memberPage(browser, a11y, ivy);
  await page.goto(`/requests/received/${ivy.brandId}/${requestId}`);
  await expect(page.getByText('Shall we run a spring giveaway together?')).toBeVisible();
  await page.getByRole('button', { name: /^Block / }).click();
  const confirmBlock = page.getByRole('dialog');
  await expect(confirmBlock.getByText(/A pending request between you is cancelled/)).toBeVisible();
  await confirmBlock.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Brand blocked' })).toBeVisible();
  await expect(page).toHaveURL(/\/requests\/received\/\d+$/);

  // The sender's held credit is back; the request is gone from Ivy's list; neither sees the other.
  await expect.poll(async () => (await credits(request, rex)).available).toBe(6);
  await expect(page.getByText('Shall we run a spring giveaway together?')).toHaveCount(0);
  expect(await brandPageStatus(request, rex, ivy)).toBe(404);
  expect(await brandPageStatus(request, ivy, rex)).toBe(404);
  const again = await request.post('/api/requests', {
    headers: authed(rex.token, rex.brandId),
    data: { toBrandId: ivy.brandId, message: 'Hello again' },
  });
  expect([again.status(), await again.json()]).toEqual([404, { error: 'Brand not found' }]);

  // Ivy manages the list at /account/blocked and unblocks: the two see each other again.
  await page.goto('/account');
  await page.getByRole('link', { name: 'Manage blocked brands' }).click();
  await expect(page).toHaveURL(/\/account\/blocked$/);
  const list = page.getByRole('list', { name: 'Blocked brands' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await list.getByRole('button', { name: /^Unblock / }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Brand unblocked' })).toBeVisible();
  await expect(page.getByText("You haven't blocked any brand.", { exact: false })).toBeVisible();
  expect(await brandPageStatus(request, rex, ivy)).toBe(200);
  expect(await brandPageStatus(request, ivy, rex)).toBe(200);
  expect((await credits(request, rex)).available).toBe(6); // nothing else comes back
});

test('a member reports a brand; admin@ suspends it from the Reports queue, then lifts it', async ({ browser, request, a11y }) => {
  test.setTimeout(180_000);
  const una = await newMember(request, who('Una Reporter', 'Una Umbrellas'));
  const zed = await newMember(request, who('Zed Spammer', `Zed Zips ${stamp}`));
  const kit = await newMember(request, who('Kit Viewer', 'Kit Kites'));
  await subscribeMonthly(request, zed);
  await sendRequest(request, zed, kit); // cancelled by the suspension

  const unaPage = await memberPage(browser, a11y, una);
  await unaPage.goto(`/brand/${zed.brandId}`);
  await unaPage.getByRole('button', { name: /^Report this brand/ }).click();
  const dialog = unaPage.getByRole('dialog', { name: 'Report this brand' });
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('textbox', { name: /What happened/ }).fill('Sent the same message to everyone we know.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(unaPage.getByText('Thanks, our team will look at this')).toBeVisible();
  await unaPage.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();

  const admin = await memberPage(browser, a11y, ADMIN);
  await admin.goto('/admin/reports');
  const card = admin.getByRole('listitem', { name: `Zed Zips ${stamp}` });
  await expect(card.getByText('Sent the same message to everyone we know.')).toBeVisible();
  await expect(card.getByText(una.email, { exact: false })).toBeVisible();
  await card.getByRole('button', { name: /^Review / }).click();
  await expect(card.getByText(/to Kit Kites/)).toBeVisible();
  await card.getByRole('button', { name: /^Suspend / }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Suspend', exact: true }).click();
  await expect(admin.locator('.toast').filter({ hasText: 'Brand suspended' })).toBeVisible();

  // Gone from every list and page; its pending request was cancelled and the credit returned.
  expect(await brandPageStatus(request, una, zed)).toBe(404);
  expect(await brandPageStatus(request, kit, zed)).toBe(404);
  const kitsRequests = await request.get('/api/requests?box=received', { headers: authed(kit.token, kit.brandId) });
  expect(((await kitsRequests.json()) as { items: unknown[] }).items).toEqual([]);
  expect((await credits(request, zed)).available).toBe(6);
  await unaPage.goto(`/brand/${zed.brandId}`);
  await expect(unaPage.getByRole('heading', { name: "We couldn't find that brand" })).toBeVisible();

  // Its owner sees the notice on the dashboard.
  const zedPage = await memberPage(browser, a11y, zed);
  await expect(zedPage.getByText(`Zed Zips ${stamp} is suspended`)).toBeVisible();

  // The admin lifts the suspension: the brand is back.
  await admin.getByRole('button', { name: 'Suspended brands' }).click();
  const held = admin.getByRole('listitem', { name: `Zed Zips ${stamp}` });
  await held.getByRole('button', { name: /^Review / }).click();
  await held.getByRole('button', { name: /^Lift suspension/ }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Lift suspension', exact: true }).click();
  await expect(admin.locator('.toast').filter({ hasText: 'Suspension lifted' })).toBeVisible();
  expect(await brandPageStatus(request, una, zed)).toBe(200);
  await admin.goto('/admin/audit');
  await expect(admin.getByText('Suspended brand').first()).toBeVisible();
  await expect(admin.getByText('Lifted suspension').first()).toBeVisible();
});
