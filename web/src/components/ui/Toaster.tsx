import { createPortal } from 'react-dom';
import { dismissToast, useToasts, type Toast } from '@/lib/toast';
import { useTopModal } from './modal-stack';
import { useToastAnchor } from './toast-anchor';

function ToastCard({ toast }: { readonly toast: Toast }) {
  return (
    <li className={`toast toast--${toast.tone}`}>
      <div className="toast__text" role={toast.tone === 'error' ? 'alert' : 'status'}>
        <p className="toast__title">{toast.title}</p>
        {toast.message && <p className="toast__message">{toast.message}</p>}
      </div>
      <button
        type="button"
        className="icon-button toast__close"
        aria-label={`Dismiss: ${toast.title}`}
        onClick={() => {
          dismissToast(toast.id);
        }}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}

/**
 * The toast stack, top right under the header, newest first. In the signed-in app it
 * renders into the slot under the sticky header (see toast-anchor.ts). While a modal
 * dialog is open the page behind it is inert and under the top layer, so the stack
 * renders inside the topmost dialog, where it stays visible and its buttons usable.
 */
export function Toaster() {
  const toasts = useToasts();
  const topModal = useTopModal();
  const anchor = useToastAnchor();
  const stack = (
    <section className="toaster" aria-label="Notifications" aria-live="polite">
      {toasts.length > 0 && (
        <ol className="toaster__list">
          {toasts.map((toast) => (
            <ToastCard key={toast.id} toast={toast} />
          ))}
        </ol>
      )}
    </section>
  );
  const host = topModal ?? anchor;
  return host ? createPortal(stack, host) : stack;
}
