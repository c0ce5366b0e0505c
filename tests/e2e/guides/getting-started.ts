import { DEMO } from '../members';
import { cardOf, open, viaMenu, type GuideScript } from './script';

/** "Getting started with Tandem": the dashboard, then a walk along the main menu. */
export const gettingStarted: GuideScript = {
  slug: 'getting-started',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/', /^Welcome back/);
      // The next step changes with what the member has done; it is always the first card.
      return page.getByRole('main').getByRole('region').filter({ has: page.getByText('Next step', { exact: true }) });
    },
    async (page) => {
      await viaMenu(page, 'Profile', 'Your brands');
      return page.getByRole('main').getByRole('button', { name: 'Edit' }).first();
    },
    async (page) => {
      await viaMenu(page, 'Matches', 'Matches');
      return cardOf(page, 'Pebble Paper Co');
    },
    async (page) => page.getByRole('button', { name: 'Send request to Pebble Paper Co' }),
    async (page) => {
      await viaMenu(page, 'Connections', 'Connections');
      return page.getByRole('main');
    },
    async (page) => page.getByRole('combobox', { name: 'Brand' }),
  ],
};
