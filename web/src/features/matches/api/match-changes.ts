import { useMemo } from 'react';
import { useMutation, useMutationState, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { updatePublicBrand, type BrandRelation } from '@/features/brands';
import { asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { matchKeys } from './keys';
import { setDismissed, setSaved, updateMatchLists, type MatchCard, type MatchLists } from './matches';

/**
 * What a member does to one match on the Matches lists. Each is a mutation (key
 * `matchKeys.changes(brand)`) that:
 *
 * - cancels the brand's list loads on their way (onMutate): a load that read the lists before
 *   this change was written would otherwise answer after it and put the card back as it was
 *   (issue 29: a Save clicked while the lists reloaded after a match run did nothing);
 * - shows the change at once on every loaded list of the brand (any filter);
 * - on failure puts the card back where and as it was; the app's MutationCache tells it in an
 *   error toast (meta);
 * - once the last change of the brand has settled, asks for the lists again, so what shows is
 *   what the server has (a load started while a change was on its way may have missed it).
 */
export type MatchChange =
  | { readonly kind: 'save'; readonly match: MatchCard; readonly saved: boolean }
  | { readonly kind: 'dismiss'; readonly match: MatchCard }
  /** Undo of a dismissal: the card back at its places in the lists. */
  | { readonly kind: 'restore'; readonly match: MatchCard; readonly potentialsIndex: number; readonly savedIndex: number };

export type MatchChangeKind = MatchChange['kind'];

function insertAt(list: readonly MatchCard[], index: number, match: MatchCard): MatchCard[] {
  if (index < 0 || list.some((item) => item.id === match.id)) return [...list];
  const next = [...list];
  next.splice(Math.min(index, next.length), 0, match);
  return next;
}

function without(list: readonly MatchCard[], id: number): MatchCard[] {
  return list.filter((item) => item.id !== id);
}

function send(brand: string, change: MatchChange): Promise<unknown> {
  const { id } = change.match;
  const options = asBrand(brand);
  switch (change.kind) {
    case 'save':
      return setSaved(id, change.saved, options);
    case 'dismiss':
      return setDismissed(id, true, options);
    case 'restore':
      // Dismissing unsaved it on the server; saving again also undoes the dismissal.
      return change.match.saved ? setSaved(id, true, options) : setDismissed(id, false, options);
  }
}

/** The lists as the member sees them once the server has the change. */
function applyChange(lists: MatchLists, change: MatchChange): MatchLists {
  const { match } = change;
  switch (change.kind) {
    case 'save':
      return {
        ...lists,
        potentials: lists.potentials.map((item) => (item.id === match.id ? { ...item, saved: change.saved } : item)),
        saved: change.saved ? insertAt(lists.saved, 0, { ...match, saved: true }) : without(lists.saved, match.id),
      };
    case 'dismiss':
      return { ...lists, potentials: without(lists.potentials, match.id), saved: without(lists.saved, match.id) };
    case 'restore': {
      const restored: MatchCard = { ...match, isNew: false };
      return {
        ...lists,
        potentials: insertAt(lists.potentials, change.potentialsIndex, restored),
        saved: match.saved ? insertAt(lists.saved, change.savedIndex, restored) : lists.saved,
      };
    }
  }
}

/** Where one card was in one loaded pair of lists, and as what. */
interface Place {
  readonly potentials: { readonly index: number; readonly card: MatchCard } | null;
  readonly saved: { readonly index: number; readonly card: MatchCard } | null;
}

/** The card's places before the change, per loaded lists (query key). */
type Earlier = readonly (readonly [QueryKey, Place])[];

function placeIn(list: readonly MatchCard[], id: number): Place['potentials'] {
  const index = list.findIndex((item) => item.id === id);
  const card = list[index];
  return card === undefined ? null : { index, card };
}

function putBack(list: readonly MatchCard[], id: number, place: Place['potentials']): MatchCard[] {
  const rest = without(list, id);
  return place === null ? rest : insertAt(rest, place.index, place.card);
}

function listsKey(brand: string): QueryKey {
  return matchKeys.allLists(brand);
}

/**
 * The change mutation of one of the member's brands (null while not known: `mutate` then
 * fails without a call). Failures are told in a toast (meta); callers may await `mutateAsync` for
 * what follows a success (the undo bar) and ignore its rejection.
 */
export function useMatchChange(brand: string | null) {
  const client = useQueryClient();
  return useMutation<unknown, Error, MatchChange, Earlier>({
    mutationKey: matchKeys.changes(brand ?? ''),
    meta: errorToast(failureTitle),
    mutationFn: (change) => {
      if (brand === null) return Promise.reject(new Error('No brand is selected'));
      return send(brand, change);
    },
    onMutate: async (change) => {
      if (brand === null) return [];
      // A load on its way may have read the lists before this change: its answer must not win.
      await client.cancelQueries({ queryKey: listsKey(brand) });
      const earlier = client
        .getQueriesData<MatchLists>({ queryKey: listsKey(brand) })
        .flatMap(([key, lists]): (readonly [QueryKey, Place])[] =>
          lists
            ? [[key, { potentials: placeIn(lists.potentials, change.match.id), saved: placeIn(lists.saved, change.match.id) }]]
            : [],
        );
      updateMatchLists(client, brand, (lists) => applyChange(lists, change));
      return earlier;
    },
    onError: (_error, change, earlier) => {
      for (const [key, place] of earlier ?? []) {
        client.setQueryData<MatchLists>(key, (lists) =>
          lists
            ? {
                ...lists,
                potentials: putBack(lists.potentials, change.match.id, place.potentials),
                saved: putBack(lists.saved, change.match.id, place.saved),
              }
            : lists,
        );
      }
    },
    onSettled: () => {
      refreshAfterChanges(client, brand);
    },
  });
}

function failureTitle(change: MatchChange): string {
  switch (change.kind) {
    case 'save':
      return change.saved ? 'Could not save' : 'Could not unsave';
    case 'dismiss':
      return 'Could not dismiss';
    case 'restore':
      return 'Could not undo';
  }
}

/**
 * Asks for the brand's lists again once its last change has settled (this one still counts
 * as pending here); while others are on their way, a load could miss them and flicker. Not
 * awaited: the change is done when the server answered (the undo bar need not wait for the
 * lists); the load has started by then, so the list is busy until it answers.
 */
function refreshAfterChanges(client: QueryClient, brand: string | null): void {
  if (brand === null || client.isMutating({ mutationKey: matchKeys.changes(brand) }) > 1) return;
  void client.invalidateQueries({ queryKey: listsKey(brand) });
}

/** The matches of the brand with a change on its way, and which (a card shows it busy). */
export function usePendingMatchChanges(brand: string | null): ReadonlyMap<number, MatchChangeKind> {
  const pending = useMutationState({
    filters: { mutationKey: matchKeys.changes(brand ?? ''), status: 'pending' },
    select: (mutation) => mutation.state.variables as MatchChange | undefined,
  });
  return useMemo(
    () =>
      new Map(
        pending.filter((change): change is MatchChange => change !== undefined).map((change) => [change.match.id, change.kind]),
      ),
    [pending],
  );
}

/** A change made on a brand's own page: save or unsave it, or undo its dismissal. */
export type RelationChange = { readonly kind: 'save'; readonly saved: boolean } | { readonly kind: 'restore' };

function relationFailureTitle(change: RelationChange): string {
  if (change.kind === 'restore') return 'Could not undo';
  return change.saved ? 'Could not save' : 'Could not unsave';
}

/**
 * Save, unsave or undo the dismissal of another brand (`otherId`) from its page, for the
 * selected brand (`brand`: its id, null while not known). The page shows the server's
 * answer; the brand's match lists are asked for again. A refusal is told in a toast (meta).
 */
export function useRelationChange(brand: string | null, otherId: number) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast(relationFailureTitle),
    mutationFn: async (change: RelationChange): Promise<Partial<BrandRelation>> =>
      change.kind === 'save' ? setSaved(otherId, change.saved) : setDismissed(otherId, false),
    onSuccess: (relation) => {
      updatePublicBrand(client, otherId, (current) => ({ ...current, relation: { ...current.relation, ...relation } }));
      if (brand !== null) void client.invalidateQueries({ queryKey: listsKey(brand) });
    },
  });
}
