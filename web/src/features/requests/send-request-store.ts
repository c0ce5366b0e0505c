import { useSyncExternalStore } from 'react';
import type { BrandSummary } from './api/requests';

/**
 * Opens the send-request popup from anywhere (a match card, a brand page):
 * `openSendRequest(brand)`. <SendRequestHost /> (mounted by the app shell) shows it.
 */
export interface SendRequestTarget {
  readonly brand: BrandSummary;
  /** Called with the new request once sent (e.g. to mark the match card as requested). */
  readonly onSent?: (requestId: string) => void;
}

let target: SendRequestTarget | null = null;
const listeners = new Set<() => void>();

function publish(next: SendRequestTarget | null): void {
  target = next;
  listeners.forEach((listener) => {
    listener();
  });
}

export function openSendRequest(brand: BrandSummary, onSent?: (requestId: string) => void): void {
  publish({ brand, onSent });
}

export function closeSendRequest(): void {
  publish(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const get = () => target;

export function useSendRequestTarget(): SendRequestTarget | null {
  return useSyncExternalStore(subscribe, get, get);
}
