import { useId, useState } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { describeError } from '@/lib/api';
import { useReplyToTeam } from '../api/trust';

export const REPLY_MAX = 5000;

/**
 * The dashboard's notice to the owner of a suspended brand (issue 27): what it means, and a box
 * to reply to the team (it reaches the admin console's Issue reports).
 */
export function SuspendedNotice({ brandName }: { readonly brandName: string }) {
  const reply = useReplyToTeam();
  const [text, setText] = useState('');
  const fieldId = useId();
  const empty = text.trim() === '';
  return (
    <Alert title={`${brandName} is suspended`}>
      <p>
        Our team suspended this brand after members reported it. While it is suspended, other members don't see it, and it can't send requests or pitches. We've emailed you about it.
      </p>
      {reply.isSuccess ? (
        <p role="status">Thanks, your reply has reached our team. We'll get back to you by email.</p>
      ) : (
        <form
          className="suspended-reply"
          onSubmit={(event) => {
            event.preventDefault();
            if (!empty) reply.mutate(text);
          }}
        >
          <label className="field__label" htmlFor={fieldId}>
            Reply to our team
          </label>
          <textarea
            id={fieldId}
            rows={3}
            maxLength={REPLY_MAX}
            value={text}
            onChange={(event) => { setText(event.target.value); }}
            className="field__input field__input--textarea"
          />
          {reply.isError && <p className="field__error">{describeError(reply.error)}</p>}
          <Button type="submit" variant="secondary" busy={reply.isPending} disabled={empty} className="alert__action">
            Send reply
          </Button>
        </form>
      )}
    </Alert>
  );
}
