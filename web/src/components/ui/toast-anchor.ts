import { useSyncExternalStore } from 'react';

/**
 * Where the toasts go in a layout with a sticky header: a slot just under it, so a toast
 * never covers the header's controls (credits badge, brand switcher, account menu) and
 * follows the header when a message bar above it scrolls away. AppLayout provides the
 * slot with `setToastAnchor` (a callback ref); the Toaster renders into it.
 */
let anchor: HTMLElement | null = null;
const listeners = new Set<() => void>();

export function setToastAnchor(element: HTMLElement | null): void {
  if (anchor === element) return;
  anchor = element;
  listeners.forEach((listener) => {
    listener();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getAnchor = () => anchor;

export function useToastAnchor(): HTMLElement | null {
  return useSyncExternalStore(subscribe, getAnchor, () => null);
}
