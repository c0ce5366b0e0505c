import { useSyncExternalStore } from 'react';

/**
 * Open modals, innermost last. The platform puts each `showModal()` dialog in the top
 * layer and makes the rest of the page inert; this stack adds what it does not: only
 * the top modal keeps Tab inside itself, the page behind stops scrolling
 * (`body.has-modal`), and content that must stay usable above a modal (the toasts) can
 * render into the top one.
 */
interface OpenModal {
  readonly id: symbol;
  readonly element: HTMLDialogElement;
}

let stack: readonly OpenModal[] = [];
const listeners = new Set<() => void>();

function publish(next: readonly OpenModal[]): void {
  stack = next;
  document.body.classList.toggle('has-modal', stack.length > 0);
  listeners.forEach((listener) => {
    listener();
  });
}

export function pushModal(id: symbol, element: HTMLDialogElement): void {
  publish([...stack, { id, element }]);
}

export function removeModal(id: symbol): void {
  if (stack.some((modal) => modal.id === id)) publish(stack.filter((modal) => modal.id !== id));
}

export function isTopModal(id: symbol): boolean {
  return stack[stack.length - 1]?.id === id;
}

function topElement(): HTMLDialogElement | null {
  return stack[stack.length - 1]?.element ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The innermost open modal dialog (null when none is open), re-rendering when it changes. */
export function useTopModal(): HTMLDialogElement | null {
  return useSyncExternalStore(subscribe, topElement, () => null);
}
