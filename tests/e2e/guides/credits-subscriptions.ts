import { DEMO } from '../members';
import { cardOf, open, type GuideScript } from './script';

/** "Credits and your subscription": the credits badge and Billing (nothing is bought). */
export const creditsSubscriptions: GuideScript = {
  slug: 'credits-subscriptions',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/account/subscriptions', 'Billing');
      return cardOf(page, 'Your plan');
    },
    async (page) => {
      await page.getByRole('button', { name: /credits$/ }).click();
      return page.getByRole('dialog', { name: 'How credits work' });
    },
    async (page) => {
      await page.keyboard.press('Escape');
      return page.getByRole('button', { name: /credits$/ });
    },
    async (page) => cardOf(page, 'Buy more'),
    async (page) => page.getByRole('button', { name: 'Manage subscription' }),
    async (page) => cardOf(page, 'Your plan'),
  ],
};
