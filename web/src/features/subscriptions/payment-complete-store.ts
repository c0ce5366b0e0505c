import { useSyncExternalStore } from 'react';

/**
 * The payment-complete message (SPEC section 8), shown once the member is back on the
 * parent path after a payment: publishing it is the "payment complete" event.
 */
let current: string | null = null;
const listeners = new Set<() => void>();

function publish(next: string | null): void {
  current = next;
  listeners.forEach((listener) => {
    listener();
  });
}

export function showPaymentComplete(message: string): void {
  publish(message);
}

export function closePaymentComplete(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const get = () => current;

export function usePaymentComplete(): string | null {
  return useSyncExternalStore(subscribe, get, get);
}
