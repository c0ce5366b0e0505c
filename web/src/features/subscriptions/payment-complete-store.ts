import { createOpenStore } from '@/lib/store';

/**
 * The payment-complete message (SPEC section 8), shown once the member is back on the
 * parent path after a payment: publishing it is the "payment complete" event.
 */
const message = createOpenStore<string>();

export function showPaymentComplete(text: string): void {
  message.open(text);
}

export function closePaymentComplete(): void {
  message.close();
}

export function usePaymentComplete(): string | null {
  return message.use();
}
