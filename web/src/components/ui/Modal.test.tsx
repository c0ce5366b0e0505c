import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { showToast } from '@/lib/toast';
import { confirm } from './confirm';
import { ConfirmHost } from './ConfirmHost';
import { Modal, type ModalWidth } from './Modal';
import { Toaster } from './Toaster';

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
  it('is the platform <dialog>, opened with showModal() and labelled by its title', async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal');
    const { dialog } = await openModal();
    expect(dialog.tagName).toBe('DIALOG');
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveClass('modal--800');
    expect(document.body).toHaveClass('has-modal');
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
    await user.click(screen.getByText('A 3 or 6 month term.'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(dialog);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body).not.toHaveClass('has-modal');
  });

  it('closes only the topmost dialog on Esc (a confirm over a popup)', async () => {
    const onClose = vi.fn();
    const { user } = await openModal({ onClose });
    render(<ConfirmHost />);
    const answer = confirm({ title: 'Leave?', message: 'Your changes are lost.' }).catch((error: unknown) => error);
    await screen.findByRole('dialog', { name: 'Leave?' });
    await user.keyboard('{Escape}');
    await expect(answer).resolves.toMatchObject({ message: 'User cancelled' });
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Feature terms' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows toasts inside the open dialog (the page behind is inert), and back on the page after', async () => {
    render(<Toaster />);
    const { user, dialog } = await openModal();
    act(() => {
      showToast({ title: 'Saved' });
    });
    expect(dialog).toContainElement(screen.getByText('Saved'));
    await user.keyboard('{Escape}');
    expect(dialog).not.toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
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
