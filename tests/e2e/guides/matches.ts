import { DEMO } from '../members';
import { cardOf, open, type GuideScript } from './script';

/** "Reading your matches": the list, a card's reasons, Saved, dismissing and a whole profile (nothing is changed). */
export const matches: GuideScript = {
  slug: 'matches',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/matches', 'Matches');
      return page.getByRole('heading', { name: 'Potential matches' });
    },
    async (page) => cardOf(page, 'Pebble Paper Co'),
    async (page) => page.getByRole('button', { name: 'Save Pebble Paper Co' }),
    async (page) => page.getByRole('button', { name: 'Dismiss Pebble Paper Co' }),
    async (page) => {
      await cardOf(page, 'Pebble Paper Co').getByRole('link', { name: /^View brand/ }).click();
      return page.getByRole('heading', { level: 1, name: 'Pebble Paper Co' });
    },
    async (page) => {
      await open(page, '/matches', 'Matches');
      return page.getByRole('heading', { name: /^An? .+ brand$/ }).first();
    },
  ],
};
