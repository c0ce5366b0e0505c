import { createStore } from './store';

/**
 * Toast notifications (SPEC section 9): shown top right, newest first, at most
 * five at once; each disappears after 7.5 s, or 8 s in the 'product' style.
 * The store is plain state so any layer (the API client included) can raise one;
 * components/ui/Toaster renders it.
 */
export type ToastTone = 'info' | 'success' | 'error' | 'product';

export interface ToastInput {
  readonly title: string;
  readonly message?: string;
  readonly tone?: ToastTone;
}

export interface Toast extends Required<ToastInput> {
  readonly id: number;
}

/** A toast's message with the server's notice after it (e.g. a hidden name written in a message). */
export function withNotice(message: string, notice?: string | null): string {
  return notice ? `${message} ${notice}` : message;
}

export const TOAST_TIMEOUT_MS = 7500;
export const PRODUCT_TOAST_TIMEOUT_MS = 8000;
export const MAX_TOASTS = 5;

const toasts = createStore<readonly Toast[]>([]);
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function stopTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

export function dismissToast(id: number): void {
  stopTimer(id);
  const shown = toasts.get();
  if (shown.some((toast) => toast.id === id)) toasts.set(shown.filter((toast) => toast.id !== id));
}

export function toastTimeout(tone: ToastTone): number {
  return tone === 'product' ? PRODUCT_TOAST_TIMEOUT_MS : TOAST_TIMEOUT_MS;
}

/** Shows a toast and returns its id. The oldest goes when a sixth arrives. */
export function showToast({ title, message = '', tone = 'info' }: ToastInput): number {
  const toast: Toast = { id: nextId++, title, message, tone };
  const next = [toast, ...toasts.get()];
  next.slice(MAX_TOASTS).forEach((dropped) => {
    stopTimer(dropped.id);
  });
  timers.set(
    toast.id,
    setTimeout(() => {
      dismissToast(toast.id);
    }, toastTimeout(tone)),
  );
  toasts.set(next.slice(0, MAX_TOASTS));
  return toast.id;
}

export function clearToasts(): void {
  [...timers.keys()].forEach(stopTimer);
  toasts.set([]);
}

export function getToasts(): readonly Toast[] {
  return toasts.get();
}

/** The toasts on screen, newest first. */
export function useToasts(): readonly Toast[] {
  return toasts.use();
}
