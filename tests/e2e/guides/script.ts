import type { Locator, Page } from '@playwright/test';
import type { Login } from '../members';

/**
 * A video guide's script (SPEC "Video Guides", our `recorded` type): the member it is recorded
 * as, and one step per line of the guide's outline in videos.toml (the captions are those
 * lines, in order). A step brings the screen the line talks about and answers the part of it
 * to point at; the runner (record.ts) waits until that part is visible, frames it and holds it
 * for as long as the caption takes to read. Steps only look: they never send, save or pay, so
 * a guide can run on the shared e2e stack without changing what other journeys see.
 */
export interface GuideScript {
  readonly slug: string;
  readonly who: Login;
  readonly steps: readonly Step[];
}

export type Step = (page: Page) => Promise<Locator>;

/** Goes to a page of the app through the main menu, as a member would, and waits for its heading. */
export async function viaMenu(page: Page, item: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${item}`) }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Opens an address of the app directly (a link from an email or a bookmark) and waits for its heading. */
export async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The card (or section) of the page holding this heading. */
export function cardOf(page: Page, heading: string | RegExp): Locator {
  return page
    .locator('section, article, li, .card')
    .filter({ has: page.getByRole('heading', { name: heading }) })
    .last();
}
