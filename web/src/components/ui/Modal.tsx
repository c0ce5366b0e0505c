import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type RefObject } from 'react';
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
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  const pressStartedOnOverlay = useRef(false);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const id = Symbol('modal');
    const returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    pushModal(id);

    const target =
      initialFocus?.current ??
      (bodyRef.current ? focusableWithin(bodyRef.current)[0] : undefined) ??
      dialogRef.current;
    target?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!isTopModal(id) || !dialogRef.current) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      } else {
        trapTab(event, dialogRef.current);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      removeModal(id);
      if (returnFocusTo?.isConnected) returnFocusTo.focus();
    };
    // Focus moves once, when the modal opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onOverlayMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    pressStartedOnOverlay.current = event.target === event.currentTarget;
  };
  const onOverlayClick = (event: MouseEvent<HTMLDivElement>) => {
    const onOverlay = event.target === event.currentTarget && pressStartedOnOverlay.current;
    pressStartedOnOverlay.current = false;
    if (onOverlay && closeOnOverlayClick) onClose();
  };

  return (
    <div
      className="modal-overlay"
      data-testid="modal-overlay"
      onMouseDown={onOverlayMouseDown}
      onClick={onOverlayClick}
    >
      <div
        ref={dialogRef}
        className={`modal modal--${width}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
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
    </div>
  );
}

/**
 * An accessible popup: role="dialog", labelled by its title, focus kept inside
 * and returned on close. Closes on Esc, the X, and (when allowed) an overlay click.
 */
export function Modal({ open, ...props }: ModalProps) {
  if (!open) return null;
  return createPortal(<ModalDialog {...props} />, document.body);
}
