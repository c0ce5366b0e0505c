import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, DEMO, authed, badge, logIn, newMember, signIn, signUp } from './members';

/**
 * Defects a member met using the app (issue 22), each at the width it was seen at, with axe
 * failing on moderate findings too on every page these journeys visit.
 */
test.use({ a11yLevel: 'moderate' });

/** How much of the selected brand's name the switcher shows: its text's width against the room it has. */
async function switcherRoom(page: Page): Promise<{ text: string; needed: number; room: number }> {
  return page.getByRole('combobox', { name: 'Brand' }).evaluate((element) => {
    const select = element as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.selectedOptions[0]?.textContent ?? '';
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text, needed: Math.ceil(context.measureText(text).width), room: Math.floor(room) };
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the brand switcher shows the whole brand name beside the Guide button', async ({ page }) => {
    await signIn(page, DEMO);
    await expect(page.getByRole('button', { name: /^Guide/ })).toBeVisible();
    const switcher = page.getByRole('combobox', { name: 'Brand' });
    await expect(switcher).toBeVisible();
    await expect(switcher.locator('option:checked')).toHaveText('Oat & Honey');
    const { text, needed, room } = await switcherRoom(page);
    expect(needed, `"${text}" needs ${needed}px; the switcher has ${room}px`).toBeLessThanOrEqual(room);
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('closing Help with Finish or Esc gives focus back to the account menu button', async ({ page }) => {
    await signIn(page, DEMO);
    const menuButton = page.getByRole('button', { name: /^Account menu for / });
    for (const close of ['Finish', 'Escape'] as const) {
      await menuButton.click();
      await page.getByRole('menuitem', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Help' });
      await expect(help).toBeVisible();
      if (close === 'Escape') {
        await page.keyboard.press('Escape');
      } else {
        await help.getByRole('button', { name: 'Next' }).click();
        await help.getByRole('button', { name: 'Finish' }).click();
      }
      await expect(help).toBeHidden();
      await expect(menuButton).toBeFocused();
    }
  });

  test('a member already signed in sees the global message the admin sets, after a reload', async ({ page, request }) => {
    await signIn(page, DEMO);
    await expect(page.getByRole('region', { name: 'Messages' })).toBeHidden();
    const { access_token: admin } = await logIn(request, ADMIN);
    const message = 'Tandem is down for maintenance on Sunday from 6am to 7am.';
    const set = await request.put('/api/admin/settings', { headers: authed(admin), data: { globalMessage: message } });
    expect(set.ok(), await set.text()).toBeTruthy();
    try {
      await page.reload();
      const bar = page.getByRole('region', { name: 'Messages' });
      await expect(bar.getByText(message)).toBeVisible();
      await bar.getByRole('button', { name: 'Dismiss message' }).click();
      await expect(bar).toBeHidden();
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(message)).toBeHidden();
    } finally {
      await request.put('/api/admin/settings', { headers: authed(admin), data: { globalMessage: '' } });
    }
  });

  test('a feature that is not in the Pitch Area has a level-1 heading, by its address and by its jump link', async ({ page }) => {
    await signIn(page, DEMO);
    for (const path of ['/pitch/no-such-feature', '/pitch/jump/no-such-feature']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: "This feature isn't in the Pitch Area" })).toBeVisible();
    }
  });
  test('Admin Users says what a member without a plan holds: gifted credits, not "No plan"', async ({ page, request }) => {
    const stamp = Date.now();
    const member = await newMember(request, {
      name: 'Gia Gift',
      email: `gia.gift.${stamp}@example.com`,
      password: 'Gifted-Credits-Only-7',
      brand: `Gift Shop ${stamp}`,
    });
    const { access_token: admin } = await logIn(request, ADMIN);
    const gift = await request.post('/api/admin/credits/grant', {
      headers: authed(admin),
      data: { email: member.email, amount: 2, kind: 'gifted', days: 30 },
    });
    expect(gift.status(), await gift.text()).toBe(200);
    await signIn(page, ADMIN);
    await page.goto(`/admin/users?q=${encodeURIComponent(member.email)}`);
    const row = page.getByRole('row', { name: new RegExp(member.email.replace(/\./g, '\\.')) });
    await expect(row.getByText('Gifted credits only')).toBeVisible();
    await expect(row.getByText('No plan')).toHaveCount(0);
    // gifted credits are not a plan: the member's next plan can still wait for approval
    await expect(row.getByRole('button', { name: 'Require approval' })).toBeVisible();
  });

  test('the tips tour shows a member without credits where credits come from, not a badge they do not have', async ({ page, request }) => {
    const stamp = Date.now();
    const member = await signUp(request, {
      name: 'Tao Tour',
      email: `tao.tour.${stamp}@example.com`,
      password: 'Tips-Tour-Credits-4',
      brand: `Tour Co ${stamp}`,
    });
    for (const action of ['users/action/welcome', 'users/action/brand-visibility-pupup']) {
      const done = await request.post(`/api/${action}`, { headers: authed(member.token) });
      expect(done.ok(), await done.text()).toBeTruthy();
    }
    await signIn(page, member);
    await expect(badge(page)).toHaveCount(0); // no plan, no credits: SPEC hides the badge
    const tip = page.getByRole('dialog', { name: 'Credits and your plan' });
    for (let step = 0; step < 6 && !(await tip.isVisible()); step += 1) {
      await page.getByRole('dialog').getByRole('button', { name: 'Next' }).click();
    }
    await expect(tip).toBeVisible();
    await expect(tip).toContainText('Choose a plan under Billing, in your account menu here.');
    await expect(tip).not.toContainText('Your credits are shown here');
  });
});
