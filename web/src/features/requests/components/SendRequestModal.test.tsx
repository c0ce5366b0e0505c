import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardBody, mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { openSendRequest } from '../send-request-store';
import { CREDITS_5_OF_6, CREDITS_6_OF_6, FERN, requestItem } from '../test-fixtures';

async function openPopup(sendAnswer: MockAnswer, path = '/') {
  signIn();
  let sent = false;
  const api = mockApi({
    ...shellRoutes(),
    'GET dashboard': () => dashboardBody({ credits: sent ? CREDITS_5_OF_6 : CREDITS_6_OF_6 }),
    'POST requests': (request) => {
      if (typeof sendAnswer !== 'function') return sendAnswer;
      const answer = sendAnswer(request);
      sent = !(answer instanceof Response) || answer.ok;
      return answer;
    },
  });
  const view = renderRoute(path);
  await screen.findByRole('button', { name: '6/6 credits' });
  let onSent = '';
  act(() => {
    openSendRequest(FERN, (id) => {
      onSent = id;
    });
  });
  const dialog = await screen.findByRole('dialog', { name: 'Connect with Wild Fern Candles' });
  return { ...view, api, dialog: within(dialog), sentId: () => onSent };
}

describe('SendRequestModal', () => {
  it('needs a message of at most 1000 characters, then sends it and the badge goes 6/6 to 5/6', async () => {
    const { user, api, dialog, sentId } = await openPopup(() =>
      jsonResponse({ request: requestItem({ id: 'r42', direction: 'sent' }), credits: CREDITS_5_OF_6 }, 201),
    );
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    expect(dialog.getByText('This field is required')).toBeInTheDocument();
    expect(api.calls('POST requests')).toHaveLength(0);

    const box = dialog.getByLabelText('Your message');
    await user.click(box);
    await user.paste('x'.repeat(1001));
    expect(dialog.getByText('1001/1000')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    expect(dialog.getByText('Please keep this to 1000 characters or fewer.')).toBeInTheDocument();
    expect(api.calls('POST requests')).toHaveLength(0);

    await user.clear(box);
    await user.type(box, '  Shall we do a giveaway?  ');
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(api.calls('POST requests')[0]?.body).toEqual({ toBrandId: 7, message: 'Shall we do a giveaway?' });
    expect(screen.getByText('Request sent')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '5/6 credits' })).toBeInTheDocument();
    expect(sentId()).toBe('r42');
  });

  it('tells a sender that hides its name when its message names it', async () => {
    const notice = 'Your message names your brand; it will be shown with the name removed.';
    const { user, dialog } = await openPopup(() =>
      jsonResponse({ request: requestItem({ id: 'r43', direction: 'sent' }), credits: CREDITS_5_OF_6, notice }, 201),
    );
    await user.type(dialog.getByLabelText('Your message'), 'Zyxquor here');
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(`We've let Wild Fern Candles know. You'll hear from us when they reply. ${notice}`)).toBeInTheDocument();
  });

  it("opens the overlay titled 'buy more to continue' when out of credits", async () => {
    const { user, dialog } = await openPopup(
      jsonResponse({ error: 'You have no credits left.', code: 'out_of_credits' }, 402),
      '/requests/sent',
    );
    await user.type(dialog.getByLabelText('Your message'), 'Hello!');
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    const overlay = within(await screen.findByRole('dialog', { name: 'Buy more to continue' }));
    expect(overlay.getByText('6 credits per month')).toBeInTheDocument();
    expect(overlay.getByText('30-day money-back guarantee')).toBeInTheDocument();
    expect(overlay.getByText('6 of 6 credits left')).toBeInTheDocument();
    expect(overlay.getByRole('link', { name: 'Get more credits in Billing' })).toHaveAttribute('href', '/account/subscriptions/');
    expect(screen.queryByRole('dialog', { name: 'Connect with Wild Fern Candles' })).not.toBeInTheDocument();
  });

  it("opens the overlay titled 'you need to buy a subscription to continue' without a subscription", async () => {
    const { user, dialog } = await openPopup(
      jsonResponse({ error: 'You need to buy a subscription to continue.', code: 'no_subscription' }, 402),
    );
    await user.type(dialog.getByLabelText('Your message'), 'Hello!');
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('dialog', { name: 'You need to buy a subscription to continue' })).toBeInTheDocument();
  });

  it('shows a 409 in the popup and keeps the message', async () => {
    const { user, dialog } = await openPopup(jsonResponse({ error: 'You already asked Wild Fern Candles.' }, 409));
    await user.type(dialog.getByLabelText('Your message'), 'Hello again!');
    await user.click(dialog.getByRole('button', { name: 'Send request' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('You already asked Wild Fern Candles.');
    expect(dialog.getByLabelText('Your message')).toHaveValue('Hello again!');
  });
});
