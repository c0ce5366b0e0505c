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

export interface CollabShare {
  readonly state: ShareState;
  readonly summary?: string;
  readonly idea?: { readonly slug: string; readonly title: string } | null;
  readonly proposedByYou?: boolean;
  /** Which proposal this is (epoch ms): agreeing names it, so an edited summary is read first. */
  readonly proposedAt?: number;
  readonly sharedAt?: string | null;
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
  | { readonly kind: 'propose'; readonly summary: string; readonly idea: string | null }
  | { readonly kind: 'agree'; readonly proposedAt: number }
  | { readonly kind: 'withdraw' };

/** Propose, agree or withdraw; the answer is the share as it now is (member collabs reload). */
export function useShareAction(brand: string, other: string) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Share this collab'),
    mutationFn: async (action: ShareAction) => {
      const options = asBrand(brand);
      const answer =
        action.kind === 'propose'
          ? await api.post<{ share: CollabShare }>(path(other), { summary: action.summary, idea: action.idea }, options)
          : action.kind === 'agree'
            ? await api.post<{ share: CollabShare }>(path(other, '/agree'), { proposedAt: action.proposedAt }, options)
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
