import type { Page } from '@playwright/test';

/** The two widths issue 39's journeys run at: a laptop and a phone. */
export const WIDTHS = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
] as const;

const SHOTS = process.env.H39_SHOTS; // a folder: screenshots of the fixed screens for review

/** A screenshot of the page into $H39_SHOTS (nothing when it is unset). */
export async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}
