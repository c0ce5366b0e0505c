import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { messageOf } from '@/lib/api';
import { useIsFeatureOnly } from '@/lib/login-check';
import { usePaymentProcessing, type ProcessingPhase } from '../api/payment-processing';
import { paymentCompleteMessage } from '../billing-rules';
import { closeSubscriptionOverlay } from '../overlay-store';
import { closePaymentComplete, showPaymentComplete, usePaymentComplete } from '../payment-complete-store';
import { parentPath } from '../payment-paths';
import { useProcessingRoute, type ProcessingRoute } from '../processing-route';

const UNPAID: Readonly<Record<string, { title: string; text: string }>> = {
  open: { title: "Your payment wasn't completed", text: "Checkout was left before paying, so nothing was charged. You can try again whenever you like." },
  expired: { title: 'Your checkout expired', text: 'Checkout was open too long and has closed; nothing was charged. You can start again whenever you like.' },
  failed: { title: "Your payment didn't go through", text: 'Your payment failed and nothing changed on your account. Please try again, or use another card.' },
  pending: {
    title: 'Your payment is being confirmed',
    text: "Your bank is still confirming the payment. We'll update your plan as soon as it is; you can leave this page.",
  },
};

function Progress({ text }: { readonly text: string }) {
  return (
    <p className="payment-processing__progress" role="status" aria-busy="true">
      <span className="spinner" aria-hidden="true" /> {text}
    </p>
  );
}

function PhaseView({ phase, back }: { readonly phase: ProcessingPhase; readonly back: string }) {
  const backLink = (
    <Link to={back} replace className="button button--secondary">
      Go back
    </Link>
  );
  switch (phase.phase) {
    case 'checking':
      return <Progress text="Checking your payment…" />;
    case 'waiting':
      return <Progress text="Your payment went through. Updating your plan…" />;
    case 'reloading':
    case 'done':
      return <Progress text="Updating your credits…" />;
    case 'not-found':
      return (
        <div role="alert">
          <p className="alert__title">We couldn't find this payment</p>
          <p>This payment link isn't one of your account's payments. If you paid, your plan shows the payment in Billing.</p>
          {backLink}
        </div>
      );
    case 'check-failed':
      return (
        <div role="alert">
          <p className="alert__title">We couldn't check your payment</p>
          <p>{messageOf(phase.error) ?? ''}</p>
          <div className="billing__buttons">
            <Button onClick={phase.retry}>Try again</Button>
            {backLink}
          </div>
        </div>
      );
    case 'unpaid': {
      const copy = UNPAID[phase.status] ?? UNPAID.failed;
      return (
        <div role="alert">
          <p className="alert__title">{copy?.title}</p>
          {phase.reason && <p>{phase.reason}</p>}
          <p>{copy?.text}</p>
          {backLink}
        </div>
      );
    }
  }
}

/** The payment-processing page over its parent page: the flow, then back to the parent with the message. */
function PaymentProcessing({ route }: { readonly route: ProcessingRoute }) {
  const location = useLocation();
  const navigate = useNavigate();
  const featureOnly = useIsFeatureOnly();
  const phase = usePaymentProcessing(route.sessionId);
  const back = parentPath(location.pathname);
  const finished = useRef(false);

  useEffect(() => {
    if (phase.phase !== 'done' || finished.current) return;
    finished.current = true;
    // After payment the overlay closes and the payment-complete message shows (SPEC section 4).
    closeSubscriptionOverlay();
    if (route.sessionId !== null) showPaymentComplete(paymentCompleteMessage(route.type, featureOnly));
    void navigate(back, { replace: true });
  }, [phase.phase, route, featureOnly, navigate, back]);

  return (
    <Modal
      open
      width={500}
      title="Processing your payment"
      closeOnOverlayClick={false}
      onClose={() => void navigate(back, { replace: true })}
    >
      <div className="payment-processing">
        <PhaseView phase={phase} back={back} />
      </div>
    </Modal>
  );
}

/**
 * Mounted once by the app shell: on a payment-processing address (SPEC section 2) it runs
 * the payment flow over the page, and once back on the parent path shows the
 * payment-complete message.
 */
export function PaymentProcessingHost() {
  const route = useProcessingRoute();
  const location = useLocation();
  const message = usePaymentComplete();
  return (
    <>
      {route && <PaymentProcessing key={location.pathname} route={route} />}
      {message && !route && (
        <Modal
          open
          width={500}
          title="Payment complete"
          onClose={closePaymentComplete}
          footer={<Button onClick={closePaymentComplete}>Continue</Button>}
        >
          <p>{message}</p>
        </Modal>
      )}
    </>
  );
}
