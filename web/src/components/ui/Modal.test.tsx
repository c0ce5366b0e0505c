import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalWidth } from './Modal';

function Harness({
  closeOnOverlayClick,
  width,
  onClose = () => undefined,
}: {
  closeOnOverlayClick?: boolean;
  width?: ModalWidth;
  onClose?: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Open
      </button>
      <Modal
        open={open}
        title="Feature terms"
        width={width}
        closeOnOverlayClick={closeOnOverlayClick}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        footer={<button type="button">Accept</button>}
      >
        <p>A 3 or 6 month term.</p>
        <a href="/terms">Read the terms</a>
      </Modal>
    </>
  );
}

async function openModal(props: Parameters<typeof Harness>[0] = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Feature terms' }) };
}

describe('Modal', () => {
  it('is an accessible modal dialog labelled by its title', async () => {
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveClass('modal--800');
  });

  it.each([500, 800, 1000, 1200] as const)('supports width %i', async (width) => {
    const { dialog } = await openModal({ width });
    expect(dialog).toHaveClass(`modal--${width}`);
  });

  it('closes on Esc and returns focus to the opener', async () => {
    const onClose = vi.fn();
    const { user } = await openModal({ onClose });
    expect(screen.getByRole('link', { name: 'Read the terms' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });

  it('closes on the X', async () => {
    const { user } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on an overlay click when allowed, not on a click inside', async () => {
    const { user, dialog } = await openModal();
    await user.click(dialog);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByTestId('modal-overlay'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('ignores overlay clicks when not allowed', async () => {
    const { user } = await openModal({ closeOnOverlayClick: false });
    await user.click(screen.getByTestId('modal-overlay'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('keeps Tab focus inside the dialog', async () => {
    const { user } = await openModal();
    const link = screen.getByRole('link', { name: 'Read the terms' });
    const accept = screen.getByRole('button', { name: 'Accept' });
    const close = screen.getByRole('button', { name: 'Close' });
    expect(link).toHaveFocus();
    await user.tab();
    expect(accept).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(accept).toHaveFocus();
    close.focus();
    await user.tab({ shift: true });
    expect(accept).toHaveFocus();
  });
});
