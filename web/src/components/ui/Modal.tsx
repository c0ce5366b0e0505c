import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { focusableWithin, trapTab } from './focus';
import { isTopModal, pushModal, removeModal } from './modal-stack';

/** Popup widths used by the product (SPEC section 9); the confirm dialog uses 500. */
export type ModalWidth = 500 | 800 | 1000 | 1200;

export interface ModalProps {
  readonly open: boolean;
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly width?: ModalWidth;
  /** Buttons under the content. */
  readonly footer?: ReactNode;
  /** Whether a click on the dimmed overlay closes the modal. Esc and the X always do. */
  readonly closeOnOverlayClick?: boolean;
  /** What gets focus on open; defaults to the first focusable element in the content. */
  readonly initialFocus?: RefObject<HTMLElement | null>;
  /** Extra text under the title. */
  readonly description?: ReactNode;
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function ModalDialog({
  title,
  onClose,
  children,
  width = 800,
  footer,
  closeOnOverlayClick = true,
  initialFocus,
  description,
}: Omit<ModalProps, 'open'>) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const pressStartedOnOverlay = useRef(false);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const id = Symbol('modal');
    const returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The top layer: above everything, the rest of the page inert, Esc sends 'cancel'.
    dialog.showModal();
    pushModal(id, dialog);

    const target =
      initialFocus?.current ?? (bodyRef.current ? focusableWithin(bodyRef.current)[0] : undefined) ?? panelRef.current;
    target?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (isTopModal(id) && panelRef.current) trapTab(event, panelRef.current);
    };
    dialog.addEventListener('keydown', onKeyDown);
    return () => {
      dialog.removeEventListener('keydown', onKeyDown);
      removeModal(id);
      if (dialog.open) dialog.close();
      if (returnFocusTo?.isConnected) returnFocusTo.focus();
    };
    // The dialog opens, and focus moves, once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Esc: the platform's 'cancel'. The owner decides (it unmounts the modal), so the
  // dialog never closes itself behind React's back.
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    onCloseRef.current();
  };

  // The <dialog> covers the viewport and the panel sits inside it: a press that starts
  // and ends on the dialog itself (not the panel) is a click on the dimmed overlay.
  const onMouseDown = (event: MouseEvent<HTMLDialogElement>) => {
    pressStartedOnOverlay.current = event.target === event.currentTarget;
  };
  const onClick = (event: MouseEvent<HTMLDialogElement>) => {
    const onOverlay = event.target === event.currentTarget && pressStartedOnOverlay.current;
    pressStartedOnOverlay.current = false;
    if (onOverlay && closeOnOverlayClick) onClose();
  };

  return (
    <dialog
      ref={dialogRef}
      className={`modal-dialog modal--${width}`}
      data-testid="modal-overlay"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={onCancel}
      onMouseDown={onMouseDown}
      onClick={onClick}
    >
      <div ref={panelRef} className="modal" tabIndex={-1}>
        <div className="modal__header">
          <div>
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="modal__description">
                {description}
              </p>
            )}
          </div>
          <button type="button" className="icon-button modal__close" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div ref={bodyRef} className="modal__body">
          {children}
        </div>
        {footer && <div className="modal__footer">{footer}</div>}
      </div>
    </dialog>
  );
}

/**
 * A popup on the platform's <dialog>, opened with showModal(): in the top layer, the
 * page behind inert, labelled by its title. Closes on Esc, the X and (when allowed) an
 * overlay click; focus starts inside, Tab stays inside, and focus returns on close.
 */
export function Modal({ open, ...props }: ModalProps) {
  if (!open) return null;
  return createPortal(<ModalDialog {...props} />, document.body);
}
