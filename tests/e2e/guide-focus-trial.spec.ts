import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, DEMO, newMember, signIn } from './members';
import { WIDTHS, shot } from './widths';

/**
 * Issue 39 (6, 7), at 1280x800 and 375x812: a video guide opened from the list keeps keyboard
 * focus in the popup (on its player; back on its card after All guides); an admin grants a free
 * trial from the console's Users.
 */

const stamp = Date.now();

async function openVideoGuides(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Video Guides' }).click();
}

for (const size of WIDTHS) {
  test(`${size.name}: a guide opened from the list has keyboard focus on its player, and All guides returns it to the card`, async ({ browser, a11y }) => {
    const page = await (await browser.newContext({ viewport: size })).newPage();
    a11y.watch(page);
    await signIn(page, DEMO);
    await openVideoGuides(page);
    const list = page.getByRole('dialog', { name: 'Video Guides' });
    const card = list.getByRole('button', { name: 'Getting started with Tandem' });
    await card.focus();
    await page.keyboard.press('Enter');
    const guide = page.getByRole('dialog', { name: 'Getting started with Tandem' });
    const player = guide.getByLabel('Video: Getting started with Tandem');
    await expect(player).toBeFocused(); // Space plays it; Tab starts inside the popup
    await shot(page, `guide-open-focus-${size.width}`);
    await page.keyboard.press('Tab');
    expect(await guide.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await guide.getByRole('button', { name: 'All guides' }).click();
    await expect(page.getByRole('dialog', { name: 'Video Guides' }).getByRole('button', { name: 'Getting started with Tandem' })).toBeFocused();
    await a11y.check(page);
  });

  test(`${size.name}: an admin grants a member a free trial from Users`, async ({ browser, request, a11y }) => {
    test.setTimeout(120_000);
    const tia = await newMember(request, {
      name: 'Tia Trial',
      email: `tia.${size.name}.${stamp}@example.com`,
      password: 'Tandem-Trial-2026',
      brand: `Tia Teas ${size.name} ${stamp}`,
    });
    const page = await (await browser.newContext({ viewport: size })).newPage();
    a11y.watch(page);
    await signIn(page, ADMIN);
    await page.goto(`/admin/users?q=${encodeURIComponent(tia.email)}`);
    const row = page.getByRole('row', { name: new RegExp(tia.email.replace(/\./g, '\\.')) });
    await expect(row.getByText('No plan')).toBeVisible();
    await row.getByRole('button', { name: 'Grant free trial' }).click();
    await page.getByRole('dialog', { name: 'Grant a free trial?' }).getByRole('button', { name: 'Grant free trial' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Free trial granted' });
    await expect(toast).toContainText(`${tia.email} has 3 credits to use until `);
    await expect(row.getByText('Granted by Tandem')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Grant free trial' })).toHaveCount(0);
    await shot(page, `admin-trial-granted-${size.width}`);
    await a11y.check(page);
  });
}
