import { MAKER } from '../members';
import { open, type GuideScript } from './script';

/** "Featuring your brand in the Pitch Area": the area, then the feature form (never sent). */
export const pitchArea: GuideScript = {
  slug: 'pitch-area',
  who: MAKER,
  steps: [
    async (page) => {
      await open(page, '/pitch', 'Pitch Area');
      return page.getByRole('main');
    },
    async (page) => {
      await page.getByRole('link', { name: 'Feature your brand' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Feature your brand' }).waitFor();
      return page.getByText(/^Featuring costs 3 credits/);
    },
    async (page) => page.getByLabel('What you offer'),
    async (page) => page.getByText(/^Featuring costs 3 credits/),
    async (page) => page.getByRole('group', { name: 'Term' }),
  ],
};
