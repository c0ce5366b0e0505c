import { MAKER } from '../members';
import { cardOf, open, viaMenu, type GuideScript } from './script';

/** "From connection to collaboration": maker@'s one connection, then Collab Ideas. */
export const connections: GuideScript = {
  slug: 'connections',
  who: MAKER,
  steps: [
    async (page) => {
      await open(page, '/connections', 'Connections');
      return cardOf(page, 'Sea Salt Soap Co');
    },
    async (page) => page.getByRole('link', { name: 'sam@seasaltsoap.example' }),
    async (page) => {
      await viaMenu(page, 'Collab Ideas', 'Collab Ideas');
      return page.getByRole('button', { name: 'Joint giveaway' });
    },
    async (page) => {
      await page.getByRole('button', { name: 'Joint giveaway' }).click();
      return page.getByRole('dialog');
    },
    async (page) => {
      await page.keyboard.press('Escape');
      return page.getByRole('button', { name: 'Newsletter swap' });
    },
  ],
};
