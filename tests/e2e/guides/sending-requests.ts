import { DEMO } from '../members';
import { cardOf, open, viaMenu, type GuideScript } from './script';

/** "Sending a request that gets a yes": from a match to the request form (never sent), then Requests, Sent. */
export const sendingRequests: GuideScript = {
  slug: 'sending-requests',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/matches', 'Matches');
      return cardOf(page, 'Olive Goods');
    },
    async (page) => page.getByRole('button', { name: /credits$/ }),
    async (page) => {
      await page.getByRole('button', { name: 'Send request to Olive Goods' }).click();
      return page.getByRole('dialog').getByRole('textbox').first();
    },
    async (page) => page.getByRole('dialog').getByRole('textbox').first(),
    async (page) => {
      await page.keyboard.press('Escape');
      await viaMenu(page, 'Requests', 'Requests');
      await page.getByRole('link', { name: 'Sent', exact: true }).click();
      return page.getByRole('link', { name: 'Sent', exact: true });
    },
    async (page) => {
      await viaMenu(page, 'Declines', 'Declines');
      return page.getByRole('main');
    },
  ],
};
