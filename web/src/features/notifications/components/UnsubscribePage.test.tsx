import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';

describe('UnsubscribePage', () => {
  it('changes nothing on opening and unsubscribes on the click', async () => {
    const api = mockApi({
      'POST notifications/unsubscribe/u1-tips-99-sig': { source: 'tips', message: "You won't get Tips emails any more." },
    });
    const { user } = renderRoute('/unsubscribe/u1-tips-99-sig');
    const button = await screen.findByRole('button', { name: 'Unsubscribe' });
    expect(api.requests).toHaveLength(0);
    await user.click(button);
    expect(await screen.findByText("You won't get Tips emails any more.")).toBeInTheDocument();
  });

  it('shows why a link does not work', async () => {
    mockApi({
      'POST notifications/unsubscribe/bad': jsonResponse({ error: 'This unsubscribe link is not valid.' }, 400),
    });
    const { user } = renderRoute('/unsubscribe/bad');
    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('This unsubscribe link is not valid.')).toBeInTheDocument();
  });
});
