import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { memberCollabsQuery } from '@/features/collab';

/**
 * Sharing a connection under Member collabs (docs/api.md): either brand proposes with a
 * summary, the other agrees to that summary, either withdraws.
 * - none: nothing proposed; waiting-for-them: this brand proposed (or agreed) and the other has
 *   not agreed yet; waiting-for-you: the other brand proposed; shared: both agreed (listed).
 */
export type ShareState = 'none' | 'waiting-for-them' | 'waiting-for-you' | 'shared';

/** A result figure a brand may allow a shared collaboration to show (docs/api.md). */
export type ShareFigure = 'reach' | 'followers' | 'clicks' | 'orders' | 'revenue';

export const SHARE_FIGURES: readonly (readonly [ShareFigure, string])[] = [
  ['reach', 'Reach'],
  ['followers', 'New followers or subscribers'],
  ['clicks', 'Clicks'],
  ['orders', 'Orders or sign-ups'],
  ['revenue', 'Revenue'],
];

/** The finished collaboration a share shows (its id and title when proposed). */
export interface SharedCollaboration {
  readonly id: string;
  readonly title: string;
}

export interface CollabShare {
  readonly state: ShareState;
  readonly summary?: string;
  readonly idea?: { readonly slug: string; readonly title: string } | null;
  readonly proposedByYou?: boolean;
  /** Which proposal this is (epoch ms): agreeing names it, so an edited summary is read first. */
  readonly proposedAt?: number;
  readonly sharedAt?: string | null;
  /** The finished collaboration shown with its results, if the proposal names one. */
  readonly collaboration?: SharedCollaboration | null;
  /** The figures each brand allows of its own; Member collabs shows those both allowed. */
  readonly figures?: { readonly yours: readonly ShareFigure[]; readonly theirs: readonly ShareFigure[] };
}

export const shareKeys = {
  one: (brand: string, other: string) => ['connection-share', brand, other] as const,
};

function path(other: string, tail = ''): string {
  return `connections/${encodeURIComponent(other)}/share${tail}`;
}

export function shareQuery(brand: string, other: string) {
  return queryOptions({
    queryKey: shareKeys.one(brand, other),
    queryFn: async () => (await api.get<{ share: CollabShare }>(path(other), asBrand(brand))).share,
    staleTime: 0,
  });
}

export type ShareAction =
  | {
      readonly kind: 'propose';
      readonly summary: string;
      readonly idea: string | null;
      /** A finished collaboration of the two brands, and the figures of its own this brand allows. */
      readonly collaboration?: string | null;
      readonly figures?: readonly ShareFigure[];
    }
  | { readonly kind: 'agree'; readonly proposedAt: number; readonly figures?: readonly ShareFigure[] }
  | { readonly kind: 'withdraw' };

function proposalBody(action: Extract<ShareAction, { kind: 'propose' }>): Record<string, unknown> {
  const body: Record<string, unknown> = { summary: action.summary, idea: action.idea };
  if (action.collaboration) return { ...body, collaboration: action.collaboration, figures: action.figures ?? [] };
  return body;
}

/** Propose, agree or withdraw; the answer is the share as it now is (member collabs reload). */
export function useShareAction(brand: string, other: string) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Share this collab'),
    mutationFn: async (action: ShareAction) => {
      const options = asBrand(brand);
      const answer =
        action.kind === 'propose'
          ? await api.post<{ share: CollabShare }>(path(other), proposalBody(action), options)
          : action.kind === 'agree'
            ? await api.post<{ share: CollabShare }>(
                path(other, '/agree'),
                action.figures ? { proposedAt: action.proposedAt, figures: action.figures } : { proposedAt: action.proposedAt },
                options,
              )
            : await api.delete<{ share: CollabShare }>(path(other), options);
      return answer.share;
    },
    onSuccess: (share) => {
      client.setQueryData(shareKeys.one(brand, other), share);
      void client.invalidateQueries({ queryKey: memberCollabsQuery(brand).queryKey });
    },
    onError: () => void client.invalidateQueries({ queryKey: shareKeys.one(brand, other) }),
  });
}
