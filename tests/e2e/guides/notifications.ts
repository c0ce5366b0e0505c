import { DEMO } from '../members';
import { cardOf, open, type GuideScript } from './script';

/** "Choosing your notifications": the table of sources and platforms, the test notification, Slack (nothing is changed). */
export const notifications: GuideScript = {
  slug: 'notifications',
  who: DEMO,
  steps: [
    async (page) => {
      await open(page, '/account/notifications', 'Notifications');
      return page.getByRole('table');
    },
    async (page) => page.getByRole('table').getByText('Required').first(),
    async (page) => page.getByRole('columnheader').nth(2),
    async (page) => cardOf(page, 'Test notification'),
    async (page) => cardOf(page, 'Slack'),
  ],
};
