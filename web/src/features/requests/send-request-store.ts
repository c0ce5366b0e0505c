import { createOpenStore } from '@/lib/store';
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

const target = createOpenStore<SendRequestTarget>();

export function openSendRequest(brand: BrandSummary, onSent?: (requestId: string) => void): void {
  target.open({ brand, onSent });
}

export function closeSendRequest(): void {
  target.close();
}

export function useSendRequestTarget(): SendRequestTarget | null {
  return target.use();
}
