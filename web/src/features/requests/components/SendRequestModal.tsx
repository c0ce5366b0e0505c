import { useState, type SubmitEvent } from 'react';
import { formErrorOf, showFieldErrors } from '@/components/form/server-errors';
import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { useCurrentBrandId } from '@/lib/session-state';
import { openSubscriptionOverlay, paymentRefusal, useRouteSubscriptionType } from '@/features/subscriptions';
import { useSendRequest, type BrandSummary, type RequestItem } from '../api/requests';
import { BrandIdentity } from './BrandIdentity';
import { maxLengthRule } from '../utils/rules';
import { CountedTextArea } from './CountedTextArea';
import { clearPendingSend, readPendingSend, savePendingSend } from '../pending-send';

export const MESSAGE_MAX_LENGTH = 1000;
const MESSAGE_RULES = [maxLengthRule(MESSAGE_MAX_LENGTH)];

export interface SendRequestModalProps {
  /** The brand to ask; the popup is open while this is set. */
  readonly brand: BrandSummary | null;
  readonly onClose: () => void;
  /** Called with the new request after the server accepted it (the popup has closed). */
  readonly onSent?: (request: RequestItem) => void;
}

function SendRequestForm({
  brand,
  onClose,
  onAbandon,
  onSent,
}: SendRequestModalProps & { readonly brand: BrandSummary; readonly onAbandon: () => void }) {
  const from = useCurrentBrandId();
  // A send stopped by the 'Buy more to continue' overlay comes back filled in (pending-send.ts).
  const [pending] = useState(() => readPendingSend(brand.id, from));
  const message = useField({ rules: MESSAGE_RULES, initialValue: pending ?? '' });
  const type = useRouteSubscriptionType();
  const send = useSendRequest(brand);
  const busy = send.isPending;
  const error = paymentRefusal(send.error) ? null : formErrorOf(send.error, { message });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || message.validate() !== null) return;
    send.mutate(message.value.trim(), {
      onSuccess: (sent) => {
        clearPendingSend(brand.id);
        onClose();
        onSent?.(sent.request);
      },
      onError: (failure) => {
        const refusal = paymentRefusal(failure);
        if (refusal) {
          // Kept through the hosted checkout: after paying, the popup comes back filled in.
          savePendingSend(brand.id, from, message.value);
          onClose();
          openSubscriptionOverlay({ reason: refusal.reason, type: type ?? 'request' });
          return;
        }
        showFieldErrors(failure, { message }, { focus: false });
      },
    });
  };

  return (
    <form className="form send-request" noValidate onSubmit={submit}>
      <BrandIdentity brand={brand} as="h3" />
      <p className="muted small">
        Sending a request holds 1 credit. It comes back to you if {brand.name} declines or you cancel within the same
        subscription month.
      </p>
      {error && (
        <Alert title="We couldn't send your request">
          <p>{error}</p>
        </Alert>
      )}
      <CountedTextArea
        field={message}
        name="message"
        label="Your message"
        maxLength={MESSAGE_MAX_LENGTH}
        hint="Say hello and what you'd like to do together."
        placeholder="Hi! We love what you do and think our audiences would enjoy a giveaway together…"
      />
      <div className="actions actions--end">
        <Button variant="secondary" onClick={onAbandon}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          Send request
        </Button>
      </div>
    </form>
  );
}

/**
 * The popup to ask a brand to connect: a message (required, at most 1000
 * characters). On success: a toast and the credits badge updates. Out of credits
 * or without a subscription, the subscription overlay opens instead.
 */
export function SendRequestModal({ brand, onClose, onSent }: SendRequestModalProps) {
  // Closed by the member (Cancel, X, Esc): a send kept for after a payment is dropped.
  const abandon = () => {
    if (brand) clearPendingSend(brand.id);
    onClose();
  };
  return (
    <Modal open={brand !== null} width={800} title={brand ? `Connect with ${brand.name}` : ''} onClose={abandon} closeOnOverlayClick={false}>
      {brand && <SendRequestForm key={brand.id} brand={brand} onClose={onClose} onAbandon={abandon} onSent={onSent} />}
    </Modal>
  );
}
