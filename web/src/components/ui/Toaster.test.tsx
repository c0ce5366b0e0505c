import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { showToast } from '@/lib/toast';
import { Toaster } from './Toaster';

describe('Toaster', () => {
  it('renders toasts newest first with title and message, and dismisses them', async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => {
      showToast({ title: 'Link copied', message: 'Payment link copied to clipboard', tone: 'success' });
      showToast({ title: 'loadProducts', message: 'Stripe is unavailable', tone: 'error' });
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    const items = within(region).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.toast__title')?.textContent)).toEqual([
      'loadProducts',
      'Link copied',
    ]);
    expect(screen.getByRole('alert')).toHaveTextContent('Stripe is unavailable');
    await user.click(screen.getByRole('button', { name: 'Dismiss: loadProducts' }));
    expect(within(region).getAllByRole('listitem')).toHaveLength(1);
  });
});
