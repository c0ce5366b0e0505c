import { useState } from 'react';
import { showToast } from '@/lib/toast';
import { useMatchChange, usePendingMatchChanges } from '../api/match-changes';
import type { MatchCard } from '../api/matches';

/** A dismissed match the undo bar offers back, and where it was. */
export interface Dismissed {
  /** The lists it was dismissed from (brand and filter). */
  readonly key: string;
  readonly match: MatchCard;
  readonly potentialsIndex: number;
  readonly savedIndex: number;
}

const ignore = () => undefined;

/**
 * What a member does to the cards of the Matches lists (`key` names the lists shown: brand
 * and filter; null while not known): save, dismiss, and the undo bar of the last dismissal.
 *
 * Each change shows at once and is put back, with an error toast, if the server refuses it
 * (api/match-changes.ts); what follows a success (the undo bar, its toast) waits for it. The
 * undo bar belongs to the lists it was dismissed from.
 */
export function useMatchActions(
  brandId: string | null,
  key: string | null,
  lists: { readonly potentials: readonly MatchCard[]; readonly saved: readonly MatchCard[] },
) {
  const change = useMatchChange(brandId);
  const pending = usePendingMatchChanges(brandId);
  const [dismissed, setDismissedMatch] = useState<Dismissed | null>(null);
  const undo = dismissed?.key === key ? dismissed : null;

  const toggleSave = (match: MatchCard) => {
    change.mutate({ kind: 'save', match, saved: !match.saved });
  };

  const dismiss = (match: MatchCard) => {
    if (key === null) return;
    const place: Dismissed = {
      key,
      match,
      potentialsIndex: lists.potentials.findIndex((item) => item.id === match.id),
      savedIndex: lists.saved.findIndex((item) => item.id === match.id),
    };
    // On failure the member was told, and the card is back.
    change.mutateAsync({ kind: 'dismiss', match }).then(() => {
      setDismissedMatch(place);
    }, ignore);
  };

  const undoDismiss = () => {
    if (!undo) return;
    const { match, potentialsIndex, savedIndex } = undo;
    // On failure the member was told; the bar stays, to try again.
    change.mutateAsync({ kind: 'restore', match, potentialsIndex, savedIndex }).then(() => {
      setDismissedMatch(null);
      showToast({ tone: 'success', title: 'Back in your matches', message: match.name });
    }, ignore);
  };

  const hideUndo = () => {
    setDismissedMatch(null);
  };

  return {
    toggleSave,
    dismiss,
    /** The dismissal the undo bar offers back, if any. */
    undo,
    undoDismiss,
    hideUndo,
    undoing: [...pending.values()].includes('restore'),
    /** Which change each card has on its way (a card shows it busy). */
    pending,
  };
}
