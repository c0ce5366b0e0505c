import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirm, USER_CANCELLED } from '@/components/ui/confirm';
import { openSubscriptionOverlay, paymentRefusal } from '@/features/subscriptions';
import { ApiError, describeError, SessionEndedError } from '@/lib/api';
import { useSelectedBrand } from '@/lib/session';
import { showToast } from '@/lib/toast';
import {
  acceptRequest,
  cancelRequest,
  declineRequest,
  isOpen,
  otherBrand,
  requestChanged,
  requestQuery,
  useApplyRequestChange,
  type RequestChange,
  type RequestItem,
} from '../api/requests';
import { BrandIdentity } from './BrandIdentity';
import { ContactDetailsList } from './ContactDetailsList';
import { DeclineDialog } from './DeclineDialog';
import { StatusChip } from './StatusChip';
import { TimeAgo } from './TimeAgo';

export interface RequestCardProps {
  readonly item: RequestItem;
  /** Offer accept / decline / cancel where the status allows (not on the Declines lists). */
  readonly actions?: boolean;
  /** Link to the request's own page. */
  readonly detailHref?: string | null;
}

type Action = 'accept' | 'cancel';

function dateLabel(item: RequestItem): string {
  if (item.status === 'declined') return 'Declined';
  if (item.status === 'cancelled') return 'Cancelled';
  if (item.status === 'accepted') return 'Connected';
  return item.direction === 'received' ? 'Received' : 'Sent';
}

/**
 * One request: the other brand, the message, the date, the state and what can be done
 * with it. An answered action updates every loaded copy of the request (lists, its
 * page) and asks again for what it changes elsewhere (see requestChanged).
 */
export function RequestCard({ item, actions = true, detailHref }: RequestCardProps) {
  const titleId = useId();
  const client = useQueryClient();
  const selected = useSelectedBrand();
  const applyChange = useApplyRequestChange();
  const [error, setError] = useState<string | null>(null);
  const [declining, setDeclining] = useState(false);
  const brand = otherBrand(item);
  const received = item.direction === 'received';
  const open = isOpen(item);
  const changedAt = open ? item.createdAt : (item.updatedAt ?? item.createdAt);

  const action = useMutation({
    mutationFn: (kind: Action) => (kind === 'accept' ? acceptRequest(item.id) : cancelRequest(item.id)),
    onSuccess: applyChange,
  });
  const busy = action.isPending ? action.variables : null;

  /** A failure the card shows; a 409 or 404 also fetches the request as it now is. */
  const failed = (failure: unknown) => {
    if (failure instanceof SessionEndedError) return;
    const refusal = paymentRefusal(failure);
    if (refusal) {
      openSubscriptionOverlay({ reason: refusal.reason, type: 'request' });
      return;
    }
    setError(describeError(failure));
    if (failure instanceof ApiError && (failure.status === 409 || failure.status === 404)) {
      client.query(requestQuery(selected, item.id)).then(
        (fresh) => {
          requestChanged(client, fresh);
        },
        () => undefined,
      );
    }
  };

  const run = async (kind: Action, done: (change: RequestChange) => void) => {
    setError(null);
    try {
      done(await action.mutateAsync(kind));
    } catch (failure) {
      failed(failure);
    }
  };

  const accept = () =>
    run('accept', () => {
      showToast({ tone: 'success', title: `You're connected with ${brand.name}`, message: 'Their contact details are on the request. Say hello!' });
    });

  const cancel = async () => {
    try {
      await confirm({
        title: 'Cancel this request?',
        message: `Your request to ${brand.name} will be withdrawn. If it is still the same subscription month, the credit it holds comes back to you.`,
        confirmLabel: 'Cancel request',
        cancelLabel: 'Keep request',
        danger: true,
      });
    } catch (reason) {
      if (reason instanceof Error && reason.message === USER_CANCELLED) return;
      throw reason;
    }
    await run('cancel', () => {
      showToast({ title: 'Request cancelled', message: `Your request to ${brand.name} was withdrawn.` });
    });
  };

  const decline = async (reply: string) => {
    setError(null);
    try {
      const change = await declineRequest(item.id, reply);
      setDeclining(false);
      applyChange(change);
      showToast({ title: 'Request declined', message: `We've let ${brand.name} know.` });
    } catch (failure) {
      if (failure instanceof ApiError && !(failure instanceof SessionEndedError) && failure.status !== 409 && failure.status !== 404 && failure.status !== 402) {
        throw new Error(describeError(failure));
      }
      setDeclining(false);
      failed(failure);
    }
  };

  return (
    <article
      className={`request-card${item.isNew ? ' request-card--new' : ''}${item.status === 'cancelled' ? ' request-card--closed' : ''}`}
      aria-labelledby={titleId}
    >
      <div className="request-card__head">
        <BrandIdentity brand={brand} titleId={titleId} />
        <div className="request-card__chips">
          {item.isNew && <span className="status-chip status-chip--new">New</span>}
          <StatusChip item={item} />
        </div>
      </div>

      {item.pitch && (
        <p className="request-card__pitch muted small">
          {received ? 'A pitch to your feature' : 'Your pitch to their feature'}{' '}
          <Link to={`/pitch/${encodeURIComponent(item.pitch.featureId)}`}>“{item.pitch.title}”</Link>
        </p>
      )}
      {item.message && (
        <div className="request-card__message">
          <p className="visually-hidden">{received ? 'Their message:' : 'Your message:'}</p>
          <p>{item.message}</p>
        </div>
      )}
      {item.reply && (
        <div className="request-card__message request-card__message--reply">
          <p className="request-card__reply-label">{received ? 'Your reply' : 'Their reply'}</p>
          <p>{item.reply}</p>
        </div>
      )}

      <p className="request-card__meta">
        <TimeAgo prefix={dateLabel(item)} value={changedAt} />
        {detailHref && (
          <>
            {' · '}
            <Link to={detailHref} className="request-card__open">
              Open request<span className="visually-hidden"> from {brand.name}</span>
            </Link>
          </>
        )}
      </p>

      {item.status === 'accepted' && item.contact && <ContactDetailsList contact={item.contact} />}

      {error && (
        <Alert title="That didn't work">
          <p>{error}</p>
        </Alert>
      )}

      {actions && open && (
        <div className="request-card__actions">
          {received && item.status === 'pending' && (
            <>
              <Button busy={busy === 'accept'} disabled={busy !== null} onClick={() => void accept()}>
                Accept<span className="visually-hidden"> {brand.name}'s request</span>
              </Button>
              <Button
                variant="secondary"
                disabled={busy !== null}
                onClick={() => {
                  setDeclining(true);
                }}
              >
                Decline<span className="visually-hidden"> {brand.name}'s request</span>
              </Button>
              <p className="muted small request-card__free">Accepting is free.</p>
            </>
          )}
          {!received && (
            <Button variant="secondary" busy={busy === 'cancel'} disabled={busy !== null} onClick={() => void cancel()}>
              Cancel request<span className="visually-hidden"> to {brand.name}</span>
            </Button>
          )}
        </div>
      )}

      {declining && (
        <DeclineDialog
          brandName={brand.name}
          onCancel={() => {
            setDeclining(false);
          }}
          onDecline={decline}
        />
      )}
    </article>
  );
}
