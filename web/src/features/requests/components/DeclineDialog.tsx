import { useField } from '@/components/form/use-field';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import { maxLengthRule } from '../utils/rules';
import { CountedTextArea } from './CountedTextArea';

export const REPLY_MAX_LENGTH = 1000;
const REPLY_RULES = [maxLengthRule(REPLY_MAX_LENGTH)];

export interface DeclineDialogProps {
  readonly brandName: string;
  readonly onCancel: () => void;
  /** Declines with the reply (may be empty). */
  readonly onDecline: (reply: string) => void;
  /** The decline is on its way. */
  readonly busy: boolean;
  /** A refused decline the dialog shows (it stays open to try again). */
  readonly error: string | null;
}

/** Asks to confirm a decline, with an optional reply we send on the member's behalf. */
export function DeclineDialog({ brandName, onCancel, onDecline, busy, error }: DeclineDialogProps) {
  const reply = useField({ required: false, rules: REPLY_RULES });

  const decline = () => {
    if (busy || reply.validate() !== null) return;
    onDecline(reply.value);
  };

  return (
    <Modal
      open
      width={500}
      title={`Decline ${brandName}'s request?`}
      description="We'll let them know. You can add a short reply, sent from you."
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Keep request
          </Button>
          <Button variant="danger" busy={busy} onClick={decline}>
            Decline request
          </Button>
        </>
      }
    >
      {error && (
        <Alert>
          <p>{error}</p>
        </Alert>
      )}
      <CountedTextArea
        field={reply}
        name="reply"
        label="Reply"
        optional
        rows={4}
        maxLength={REPLY_MAX_LENGTH}
        placeholder="Thanks for thinking of us! It isn't the right fit for us right now."
      />
    </Modal>
  );
}
