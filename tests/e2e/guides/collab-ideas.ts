import { DEMO } from '../members';
import { open, type GuideScript } from './script';

/** "Using Collab Ideas and the calendar": the ideas, their filters, an idea's template, the calendar, member collabs. */
export const collabIdeas: GuideScript = {
  slug: 'collab-ideas',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/inspiration/ideas', 'Collab Ideas');
      return page.getByRole('button', { name: 'Joint giveaway' });
    },
    async (page) => page.getByRole('form', { name: 'Filter ideas' }),
    async (page) => {
      await page.getByRole('button', { name: 'Newsletter swap' }).click();
      return page.getByRole('dialog');
    },
    async (page) => {
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'Calendar', exact: true }).click();
      return page.getByRole('heading', { name: 'Coming up in the next six months' });
    },
    async (page) => {
      await page.getByRole('link', { name: 'Member collabs', exact: true }).click();
      return page.getByRole('main');
    },
  ],
};
