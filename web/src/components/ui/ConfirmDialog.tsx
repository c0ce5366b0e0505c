import { useRef } from 'react';
import { Button } from './Button';
import { USER_CANCELLED, type PendingConfirm } from './confirm';
import { Modal } from './Modal';

/** One question asked through confirm(), with its confirm and cancel buttons. */
export function ConfirmDialog({ item }: { readonly item: PendingConfirm }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    item.reject(new Error(USER_CANCELLED));
  };
  return (
    <Modal
      open
      width={500}
      title={item.title}
      onClose={cancel}
      initialFocus={confirmRef}
      footer={
        <>
          <Button variant="secondary" onClick={cancel}>
            {item.cancelLabel ?? 'Cancel'}
          </Button>
          <Button
            ref={confirmRef}
            variant={item.danger ? 'danger' : 'primary'}
            onClick={() => {
              item.resolve();
            }}
          >
            {item.confirmLabel ?? 'Confirm'}
          </Button>
        </>
      }
    >
      <p className="modal__text">{item.message}</p>
    </Modal>
  );
}
