import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confirm, USER_CANCELLED } from './confirm';
import { ConfirmHost } from './ConfirmHost';

/** Settles at once into 'confirmed' or the rejection's message (no unhandled rejections). */
function outcome(promise: Promise<void>): Promise<string> {
  return promise.then(
    () => 'confirmed',
    (error: unknown) => (error instanceof Error ? error.message : 'not an Error'),
  );
}

async function ask() {
  const user = userEvent.setup();
  render(<ConfirmHost />);
  const answer = outcome(confirm({ title: 'End your feature?', message: 'Your feature will stop showing today.' }));
  const dialog = await screen.findByRole('dialog', { name: 'End your feature?' });
  return { user, answer, dialog };
}

describe('confirm', () => {
  it('shows a 500 px dialog with the message and resolves on Confirm', async () => {
    const { user, answer, dialog } = await ask();
    expect(dialog).toHaveClass('modal--500');
    expect(dialog).toHaveTextContent('Your feature will stop showing today.');
    expect(screen.getByRole('button', { name: 'Confirm' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe('confirmed');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("rejects with 'User cancelled' on Cancel", async () => {
    const { user, answer } = await ask();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(USER_CANCELLED);
    expect(USER_CANCELLED).toBe('User cancelled');
  });

  it("rejects with 'User cancelled' on Esc", async () => {
    const { user, answer } = await ask();
    await user.keyboard('{Escape}');
    await expect(answer).resolves.toBe('User cancelled');
  });

  it('asks queued questions one after another', async () => {
    const { user, answer } = await ask();
    const second = outcome(confirm({ title: 'Second?', message: '…' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe('confirmed');
    await screen.findByRole('dialog', { name: 'Second?' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(second).resolves.toBe('User cancelled');
  });
});
