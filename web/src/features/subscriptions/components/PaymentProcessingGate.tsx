import { lazy, Suspense } from 'react';
import { usePaymentComplete } from '../payment-complete-store';
import { useProcessingRoute } from '../processing-route';

const PaymentProcessingHost = lazy(() =>
  import('./PaymentProcessingHost').then((m) => ({ default: m.PaymentProcessingHost })),
);

/**
 * Mounted once by the app shell: the payment flow (and the rules it words its messages with)
 * loads only on a payment-processing address or while the payment-complete message is due,
 * so the shell's first load does not carry it (BENCH web_initial_js_gz_kb).
 */
export function PaymentProcessingGate() {
  const route = useProcessingRoute();
  const message = usePaymentComplete();
  if (!route && !message) return null;
  return (
    <Suspense fallback={null}>
      <PaymentProcessingHost />
    </Suspense>
  );
}
