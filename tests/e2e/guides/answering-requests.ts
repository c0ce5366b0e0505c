import { DEMO } from '../members';
import { cardOf, open, viaMenu, type GuideScript } from './script';

/** "Answering requests, also from your inbox": Requests, Received, a request, its answers (none given). */
export const answeringRequests: GuideScript = {
  slug: 'answering-requests',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/requests/received', 'Requests');
      return cardOf(page, 'Copper Studio');
    },
    async (page) => page.getByRole('button', { name: "Accept Copper Studio's request" }),
    async (page) => page.getByRole('button', { name: "Decline Copper Studio's request" }),
    async (page) => {
      await page.getByRole('link', { name: 'Open request from Copper Studio' }).click();
      return page.getByRole('main');
    },
    async (page) => {
      await viaMenu(page, 'Declines', 'Declines');
      return page.getByRole('link', { name: 'Declined by you' });
    },
  ],
};
