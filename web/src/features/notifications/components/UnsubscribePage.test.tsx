import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';

describe('UnsubscribePage', () => {
  it('names the kind of email before the click, changes nothing on opening and unsubscribes on the click', async () => {
    const api = mockApi({
      'GET notifications/unsubscribe/u1-tips-99-sig': { source: 'tips', label: 'Tips' },
      'POST notifications/unsubscribe/u1-tips-99-sig': { source: 'tips', message: "You won't get Tips emails any more." },
    });
    const { user } = renderRoute('/unsubscribe/u1-tips-99-sig');
    const button = await screen.findByRole('button', { name: 'Unsubscribe from Tips emails' });
    expect(screen.getByText(/emails from Tandem. Your other notifications stay as they are./)).toHaveTextContent(
      'Stop getting Tips emails from Tandem.',
    );
    expect(api.calls('POST notifications/unsubscribe/u1-tips-99-sig')).toHaveLength(0);
    await user.click(button);
    expect(await screen.findByText("You won't get Tips emails any more.")).toBeInTheDocument();
    expect(api.calls('POST notifications/unsubscribe/u1-tips-99-sig')).toHaveLength(1);
  });

  it('says a link does not work when the page opens, with no button to press', async () => {
    mockApi({
      'GET notifications/unsubscribe/bad': jsonResponse(
        { error: 'This unsubscribe link is not valid. Please sign in to change your notification settings.' },
        400,
      ),
    });
    renderRoute('/unsubscribe/bad');
    expect(
      await screen.findByText('This unsubscribe link is not valid. Please sign in to change your notification settings.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /unsubscribe/i })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change all your notification settings' })).toBeInTheDocument();
  });
});
