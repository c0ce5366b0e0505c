import { DEMO } from '../members';
import { open, type GuideScript } from './script';

/** "A brand profile that finds the right partners": the brand form, section by section (nothing is saved). */
export const brandProfile: GuideScript = {
  slug: 'brand-profile',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/account/brands', 'Your brands');
      await page.getByRole('main').getByRole('button', { name: 'Edit' }).first().click();
      return page.getByLabel('Description (optional)');
    },
    async (page) => page.getByRole('region', { name: 'Your audience' }),
    async (page) => page.getByRole('region', { name: 'What you look for' }),
    async (page) => page.getByRole('region', { name: 'Social links' }),
    async (page) => page.getByRole('region', { name: 'Visibility' }),
    async (page) => page.getByRole('button', { name: 'Save changes' }),
  ],
};
