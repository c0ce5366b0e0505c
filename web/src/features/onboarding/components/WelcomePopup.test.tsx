import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { WelcomePopup } from './WelcomePopup';

function renderWelcome(message: string | null, onClose = vi.fn()) {
  render(<WelcomePopup firstName="Nina" message={message} onFinish={vi.fn(() => Promise.resolve())} onClose={onClose} />);
  return onClose;
}

describe('WelcomePopup', () => {
  it('shows an opener message from the team', () => {
    renderWelcome('Hi Nina, your onboarding call is booked for Monday.');
    expect(screen.getByText('Hi Nina, your onboarding call is booked for Monday.')).toBeInTheDocument();
  });

  it('does not repeat an opener that only says the heading again', () => {
    renderWelcome('Welcome to Tandem, Nina!');
    expect(screen.getAllByText(/Welcome to Tandem, Nina/)).toHaveLength(1);
  });

  it('ignores overlay clicks; the X closes it', async () => {
    const user = userEvent.setup();
    const onClose = renderWelcome(null);
    await user.click(screen.getByTestId('modal-overlay'));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
