import { useId, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { BrandLogo } from '@/features/brands';
import { TrustActions } from '@/features/trust';
import type { MatchCard as Match } from '../api/matches';
import { FitMeter } from './FitMeter';
import { MaskedNameHint } from './MaskedNameHint';
import { SendRequestButton } from './SendRequestButton';

export const REASONS_ON_CARD = 3;

export interface MatchCardProps {
  readonly match: Match;
  readonly showingBrandNames: boolean;
  /** The brand's page within Matches. */
  readonly detailPath: string;
  readonly onToggleSave: (match: Match) => void;
  /** Matches offers Dismiss; search results do not (nothing to dismiss from). */
  readonly onDismiss?: (match: Match) => void;
  /** The request popup sent a request to this brand. */
  readonly onRequested?: (match: Match) => void;
  readonly saving?: boolean;
  readonly dismissing?: boolean;
}

/**
 * Esc closes the More menu and puts focus back on its toggle, as Esc closes every popup here.
 * Only for keys pressed inside it: the report dialog it opens is portalled out of it (its Esc
 * closes the dialog only, though React bubbles the event through here).
 */
function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const menu = event.currentTarget;
  if (event.key !== 'Escape' || !menu.open || !(event.target instanceof Node) || !menu.contains(event.target)) return;
  event.preventDefault();
  menu.open = false;
  menu.querySelector('summary')?.focus();
}

/** One suggested brand: who they are, how well you fit, why, and what to do next. */
export function MatchCard({
  match,
  showingBrandNames,
  detailPath,
  onToggleSave,
  onDismiss,
  onRequested,
  saving = false,
  dismissing = false,
}: MatchCardProps) {
  const nameId = useId();
  const masked = !match.nameVisible;
  const reasons = match.reasons.slice(0, REASONS_ON_CARD);
  return (
    <article className={`match-card${match.isNew ? ' match-card--new' : ''}`} aria-labelledby={nameId}>
      <div className="match-card__head">
        <BrandLogo name={match.name} logoUrl={match.logoUrl} masked={masked} />
        <div className="match-card__who">
          <h3 id={nameId} className="match-card__name">
            <Link to={detailPath} className={masked ? 'brand-name brand-name--masked' : 'brand-name'}>
              {match.name}
            </Link>
          </h3>
          {match.category && <p className="match-card__category">{match.category}</p>}
        </div>
        <div className="match-card__badges">
          {match.isNew && <span className="badge badge--new">New</span>}
          {match.saved && <span className="badge badge--saved">Saved</span>}
        </div>
      </div>
      {masked && <MaskedNameHint showingBrandNames={showingBrandNames} />}

      <FitMeter fit={match.fit} promise={match.fitPromise} />
      {match.replyLabels && match.replyLabels.length > 0 && (
        <p className="muted small match-card__reply">{match.replyLabels.join(' · ')}</p>
      )}

      {reasons.length > 0 && (
        <div className="match-card__why">
          <p className="match-card__why-title">Why you fit</p>
          <ul className="reasons">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="match-card__actions">
        <div className="match-card__main-actions">
          <SendRequestButton
            brand={match}
            onSent={() => {
              onRequested?.(match);
            }}
          />
          <Link to={detailPath} className="button button--secondary">
            View brand<span className="visually-hidden">: {match.name}</span>
          </Link>
        </div>
        <div className="match-card__more-actions">
          <Button
            variant="ghost"
            busy={saving}
            onClick={() => {
              onToggleSave(match);
            }}
          >
            {match.saved ? 'Unsave' : 'Save'}
            <span className="visually-hidden"> {match.name}</span>
          </Button>
          {onDismiss && (
            <Button
              variant="ghost"
              className="match-card__dismiss"
              busy={dismissing}
              onClick={() => {
                onDismiss(match);
              }}
            >
              Dismiss<span className="visually-hidden"> {match.name}</span>
            </Button>
          )}
          <details className="match-card__trust" onKeyDown={closeOnEscape}>
            <summary className="button button--ghost">
              More<span className="visually-hidden"> for {match.name}</span>
            </summary>
            <TrustActions brandId={match.id} brandName={match.name} compact />
          </details>
        </div>
      </div>
    </article>
  );
}
