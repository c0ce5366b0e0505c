import { useSyncExternalStore } from 'react';
import { createStore } from '@/lib/store';

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

const stack = createStore<readonly OpenModal[]>([]);

function publish(next: readonly OpenModal[]): void {
  document.body.classList.toggle('has-modal', next.length > 0);
  stack.set(next);
}

export function pushModal(id: symbol, element: HTMLDialogElement): void {
  publish([...stack.get(), { id, element }]);
}

export function removeModal(id: symbol): void {
  const modals = stack.get();
  if (modals.some((modal) => modal.id === id)) publish(modals.filter((modal) => modal.id !== id));
}

export function isTopModal(id: symbol): boolean {
  const modals = stack.get();
  return modals[modals.length - 1]?.id === id;
}

function topElement(): HTMLDialogElement | null {
  const modals = stack.get();
  return modals[modals.length - 1]?.element ?? null;
}

/** The innermost open modal dialog (null when none is open), re-rendering when it changes. */
export function useTopModal(): HTMLDialogElement | null {
  return useSyncExternalStore(stack.subscribe, topElement, () => null);
}
