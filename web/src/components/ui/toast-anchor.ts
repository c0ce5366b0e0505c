import { useSyncExternalStore } from 'react';
import { createStore } from '@/lib/store';

/**
 * Where the toasts go in a layout with a sticky header: a slot just under it, so a toast
 * never covers the header's controls (credits badge, brand switcher, account menu) and
 * follows the header when a message bar above it scrolls away. AppLayout provides the
 * slot with `setToastAnchor` (a callback ref); the Toaster renders into it.
 */
const anchor = createStore<HTMLElement | null>(null);

export function setToastAnchor(element: HTMLElement | null): void {
  anchor.set(element);
}

export function useToastAnchor(): HTMLElement | null {
  return useSyncExternalStore(anchor.subscribe, anchor.get, () => null);
}
