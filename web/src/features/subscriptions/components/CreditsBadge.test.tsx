import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { formatOrdinalDate } from '@/lib/format';
import { creditsOf, inDays } from '../test-fixtures';

describe('credits badge', () => {
  it("shows 'available/total' in the top bar and explains how credits work", async () => {
    signIn();
    const expires = inDays(7);
    const arrives = inDays(8);
    const monthly = creditsOf('monthly');
    mockApi({
      ...shellRoutes({
        credits: {
          ...monthly,
          next: { to: expires, credits: 4 },
          plan: { ...(monthly.plan as object), nextCredits: { on: arrives, credits: 6 } },
        },
      }),
      'GET requests?box=received': { items: [], nextCursor: null },
    });
    const { user } = renderRoute('/requests');
    const badge = await screen.findByRole('button', { name: '4/6 credits' });
    expect(badge).toHaveTextContent('4/6');
    await user.click(badge);
    const popup = within(await screen.findByRole('dialog', { name: 'How credits work' }));
    expect(popup.getByText('4 of 6 credits left')).toBeInTheDocument();
    // SPEC's next is the soonest-expiring credits held now; the plan's next month of credits has its own line.
    expect(popup.getByText(`4 of your credits expire on ${formatOrdinalDate(new Date(expires))}.`)).toBeInTheDocument();
    expect(popup.getByText(`Your next 6 credits arrive on ${formatOrdinalDate(new Date(arrives))}.`)).toBeInTheDocument();
    expect(popup.queryByText(/new credits on/)).not.toBeInTheDocument();
    expect(popup.getByRole('heading', { name: 'Requests hold 1 credit' })).toBeInTheDocument();
    expect(popup.getByRole('heading', { name: 'Featuring costs 3 credits' })).toBeInTheDocument();
    expect(popup.getByRole('heading', { name: 'Accepting is free' })).toBeInTheDocument();

    // With credits left on a requests page, the overlay has no title (SPEC); its label stays for screen readers.
    await user.click(popup.getByRole('button', { name: 'Get more credits' }));
    const overlay = await screen.findByRole('dialog', { name: 'Your plan and credits' });
    expect(overlay.querySelector('.subscription-overlay--untitled')).not.toBeNull();
  });

  it('is hidden when the total is 0', async () => {
    signIn();
    mockApi(shellRoutes({ credits: { available: 0, total: 0 } }));
    renderRoute('/');
    await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByRole('button', { name: /credits/ })).not.toBeInTheDocument();
    expect(screen.queryByText('0/0')).not.toBeInTheDocument();
  });
});
