import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirmed } from '@/components/ui/confirmed';
import { describeError } from '@/lib/api';
import { declineStaysOpen, requestActionError, useRequestAction } from '../api/request-actions';
import { expiresLabel, isOpen, otherBrand, type RequestItem } from '../api/requests';
import { BrandIdentity } from './BrandIdentity';
import { ContactDetailsList } from './ContactDetailsList';
import { DeclineDialog } from './DeclineDialog';
import { cancelReasonText } from '../status';
import { StatusChip } from './StatusChip';
import { TimeAgo } from './TimeAgo';

export interface RequestCardProps {
  readonly item: RequestItem;
  /** Offer accept / decline / cancel where the status allows (not on the Declines lists). */
  readonly actions?: boolean;
  /** Link to the request's own page. */
  readonly detailHref?: string | null;
  /** The brand name's heading level (h3 under a list's own h2). */
  readonly headingLevel?: 'h2' | 'h3';
}

function dateLabel(item: RequestItem): string {
  if (item.status === 'declined') return 'Declined';
  if (item.status === 'cancelled') return 'Cancelled';
  if (item.status === 'accepted') return 'Connected';
  if (item.status === 'expired') return 'Expired';
  return item.direction === 'received' ? 'Received' : 'Sent';
}

/**
 * One request: the other brand, the message, the date, the state and what can be done
 * with it. An answered action updates every loaded copy of the request (lists, its
 * page) and asks again for what it changes elsewhere (see requestChanged).
 */
export function RequestCard({ item, actions = true, detailHref, headingLevel = 'h2' }: RequestCardProps) {
  const titleId = useId();
  const [declining, setDeclining] = useState(false);
  const brand = otherBrand(item);
  const received = item.direction === 'received';
  const open = isOpen(item);
  const changedAt = open ? item.createdAt : (item.updatedAt ?? item.createdAt);
  const expires = expiresLabel(item);
  const cancelledWhy = cancelReasonText(item);

  const action = useRequestAction(item);
  const busy = action.isPending ? action.variables.kind : null;
  const error = action.isError ? requestActionError(action.error, action.variables) : null;

  const accept = () => {
    action.mutate({ kind: 'accept' });
  };

  const cancel = async () => {
    const yes = await confirmed({
      title: 'Cancel this request?',
      message: `Your request to ${brand.name} will be withdrawn. If it is still the same subscription month, the credit it holds comes back to you.`,
      confirmLabel: 'Cancel request',
      cancelLabel: 'Keep request',
      danger: true,
    });
    if (yes) action.mutate({ kind: 'cancel' });
  };

  /** Declined: the dialog closes. A refusal it shows keeps it open to try again; any other closes it. */
  const decline = (reply: string) => {
    action.mutate(
      { kind: 'decline', reply },
      {
        onSettled: (_change, failure) => {
          if (!declineStaysOpen(failure)) setDeclining(false);
        },
      },
    );
  };
  const declineError =
    action.isError && action.variables.kind === 'decline' && declineStaysOpen(action.error) ? describeError(action.error) : null;

  return (
    <article
      className={`request-card${item.isNew ? ' request-card--new' : ''}${item.status === 'cancelled' ? ' request-card--closed' : ''}`}
      aria-labelledby={titleId}
    >
      <div className="request-card__head">
        <BrandIdentity brand={brand} titleId={titleId} as={headingLevel} />
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

      {cancelledWhy && <p className="request-card__why muted small">{cancelledWhy}</p>}

      <p className="request-card__meta">
        <TimeAgo prefix={dateLabel(item)} value={changedAt} />
        {expires && (
          <>
            {' · '}
            <span className="request-card__expires">{expires}</span>
          </>
        )}
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
              <Button busy={busy === 'accept'} disabled={busy !== null} onClick={accept}>
                Accept<span className="visually-hidden"> {brand.name}'s request</span>
              </Button>
              <Button
                variant="secondary"
                disabled={busy !== null}
                onClick={() => {
                  action.reset();
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
          busy={busy === 'decline'}
          error={declineError}
        />
      )}
    </article>
  );
}
