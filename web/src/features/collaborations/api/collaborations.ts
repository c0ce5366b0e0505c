import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import type { BrandSummary } from '@/features/requests';

/**
 * Collaborations between two connected brands (docs/api.md "Collaborations"). Dates are
 * 'YYYY-MM-DD' in the member's own time zone (the server reads the offset every call carries);
 * times are ISO 8601, shown in the browser's zone.
 */
export type Phase = 'proposed' | 'agreed' | 'live' | 'ended' | 'results-in' | 'declined' | 'cancelled';
export type Goal = 'reach' | 'sales' | 'content' | 'credibility';
export type Owner = 'mine' | 'theirs' | 'both';

export const PHASES: readonly Phase[] = ['proposed', 'agreed', 'live', 'ended', 'results-in', 'declined', 'cancelled'];
export const PHASE_LABELS: Readonly<Record<Phase, string>> = {
  proposed: 'Proposed',
  agreed: 'Agreed',
  live: 'Live',
  ended: 'Ended',
  'results-in': 'Results in',
  declined: 'Declined',
  cancelled: 'Cancelled',
};
export const FORMATS = ['giveaways', 'co-branded products', 'content swaps', 'newsletter swaps', 'events', 'bundles'] as const;
export const GOALS: readonly Goal[] = ['reach', 'sales', 'content', 'credibility'];
export const CURRENCIES = ['GBP', 'USD', 'EUR', 'CAD', 'AUD', 'NZD'] as const;

export interface Results {
  readonly reach?: number;
  readonly followers?: number;
  readonly clicks?: number;
  readonly orders?: number;
  readonly revenueMinor?: number;
  readonly currency?: string;
  readonly again: boolean;
  readonly rating: number;
  readonly recordedAt?: number;
}

export interface CollabSummary {
  readonly id: string;
  readonly version: number;
  readonly phase: Phase;
  readonly phaseLabel: string;
  readonly title: string;
  readonly format: string;
  readonly goal: Goal;
  readonly start: string;
  readonly end: string;
  readonly moment: { readonly slug: string; readonly name: string } | null;
  readonly partner: BrandSummary | { readonly id: null; readonly name: string };
  readonly proposedByYou: boolean;
  readonly yourTurn: boolean;
  readonly checklistDone: number;
  readonly checklistTotal: number;
  readonly results: {
    readonly mine: Results | null;
    readonly theirs: Results | null;
    readonly theirsRecorded: boolean;
    readonly visibleFrom: string;
  };
  readonly endedReason: string | null;
  readonly endedCause: string | null;
  readonly endedByYou: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ChecklistItem {
  readonly id: string;
  readonly text: string;
  readonly owner: Owner;
  readonly due: string | null;
  readonly done: boolean;
  readonly doneAt: string | null;
  readonly doneByYou: boolean;
}

export interface PlanChange {
  readonly byYou: boolean;
  readonly at: string;
  readonly kind: 'proposed' | 'changed' | 'accepted' | 'declined' | 'cancelled';
  readonly fields: Readonly<Record<string, readonly [unknown, unknown]>>;
}

export interface Message {
  readonly id: string;
  readonly byYou: boolean;
  readonly author: string;
  readonly text: string;
  readonly at: string;
}

export interface Collaboration extends CollabSummary {
  readonly bringsMine: string;
  readonly bringsTheirs: string;
  readonly idea: { readonly slug: string; readonly title: string } | null;
  readonly brief: string | null;
  readonly checklist: readonly ChecklistItem[];
  readonly changes: readonly PlanChange[];
  readonly messages: readonly Message[];
  readonly can: {
    readonly accept: boolean;
    readonly change: boolean;
    readonly decline: boolean;
    readonly cancel: boolean;
    readonly message: boolean;
    readonly tick: boolean;
    readonly addItem: boolean;
    readonly recordResults: boolean;
  };
}

export interface Figures {
  readonly collaborations: number;
  readonly withResults: number;
  readonly reach: number;
  readonly followers: number;
  readonly clicks: number;
  readonly orders: number;
  readonly revenue: Readonly<Record<string, number>>;
}

export interface CollabList {
  readonly items: readonly CollabSummary[];
  readonly totals: {
    readonly byPhase: Readonly<Record<Phase, number>>;
    readonly overall: Figures & { readonly again: number };
    readonly byPartner: readonly (Figures & { readonly partner: string })[];
    readonly byFormat: readonly (Figures & { readonly format: string })[];
    readonly byMonth: readonly (Figures & { readonly month: string })[];
  };
}

export interface PlanFields {
  readonly format: string;
  readonly title: string;
  readonly bringsMine: string;
  readonly bringsTheirs: string;
  readonly goal: string;
  readonly start: string;
  readonly end: string;
  readonly moment?: string | null;
}

export const collabKeys = {
  list: (brand: string) => ['collaborations', brand] as const,
  one: (brand: string, id: string) => ['collaborations', brand, id] as const,
};

export function collaborationsQuery(brand: string) {
  return queryOptions({
    queryKey: collabKeys.list(brand),
    queryFn: () => api.get<CollabList>('collaborations', asBrand(brand)),
    staleTime: 0,
  });
}

export function collaborationQuery(brand: string, id: string) {
  return queryOptions({
    queryKey: collabKeys.one(brand, id),
    queryFn: async () =>
      (await api.get<{ collaboration: Collaboration }>(`collaborations/${encodeURIComponent(id)}`, asBrand(brand)))
        .collaboration,
    staleTime: 0,
  });
}

/** GET collaborations/export: the CSV, saved as a file by the browser. */
export async function downloadCsv(brand: string): Promise<void> {
  const text = await api.get<string>('collaborations/export', asBrand(brand));
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'collaborations.csv';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function useProposeCollaboration(brand: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: PlanFields & { readonly otherBrandId: number; readonly idea?: string | null }) =>
      (await api.post<{ collaboration: Collaboration }>('collaborations', body, asBrand(brand))).collaboration,
    onSuccess: (made) => {
      client.setQueryData(collabKeys.one(brand, made.id), made);
      void client.invalidateQueries({ queryKey: collabKeys.list(brand) });
    },
  });
}

export type CollabAction =
  | { readonly kind: 'accept'; readonly version: number }
  | { readonly kind: 'changes'; readonly version: number; readonly plan: Partial<PlanFields> }
  | { readonly kind: 'decline'; readonly version: number; readonly reason: string }
  | { readonly kind: 'cancel'; readonly reason: string }
  | { readonly kind: 'addItem'; readonly text: string; readonly owner: Owner; readonly due: string | null }
  | { readonly kind: 'tick'; readonly itemId: string; readonly done: boolean }
  | { readonly kind: 'message'; readonly text: string }
  | { readonly kind: 'results'; readonly results: Record<string, unknown> };

export const TOAST_TITLES: Readonly<Record<CollabAction['kind'], string>> = {
  accept: 'Accept the plan',
  changes: 'Propose changes',
  decline: 'Decline the plan',
  cancel: 'Cancel the collaboration',
  addItem: 'Add to the checklist',
  tick: 'Tick the checklist',
  message: 'Send a message',
  results: 'Record results',
};

function send(brand: string, id: string, action: CollabAction): Promise<{ collaboration: Collaboration }> {
  const base = `collaborations/${encodeURIComponent(id)}`;
  const options = asBrand(brand);
  switch (action.kind) {
    case 'accept':
      return api.post(`${base}/accept`, { version: action.version }, options);
    case 'changes':
      return api.post(`${base}/changes`, { version: action.version, ...action.plan }, options);
    case 'decline':
      return api.post(`${base}/decline`, { version: action.version, reason: action.reason }, options);
    case 'cancel':
      return api.post(`${base}/cancel`, { reason: action.reason }, options);
    case 'addItem':
      return api.post(`${base}/checklist`, { text: action.text, owner: action.owner, due: action.due }, options);
    case 'tick':
      return api.put(`${base}/checklist/${encodeURIComponent(action.itemId)}`, { done: action.done }, options);
    case 'message':
      return api.post(`${base}/messages`, { text: action.text }, options);
    case 'results':
      return api.put(`${base}/results`, action.results, options);
  }
}

/** Any change to one collaboration; the answer is the collaboration as it now is. */
export function useCollabAction(brand: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast(
      (action: CollabAction) => TOAST_TITLES[action.kind],
      (error) => error instanceof ApiError && Object.keys(error.fieldErrors).length > 0,
    ),
    mutationFn: async (action: CollabAction) => ({ action, answer: (await send(brand, id, action)).collaboration }),
    onSuccess: ({ answer }) => {
      client.setQueryData(collabKeys.one(brand, id), answer);
      void client.invalidateQueries({ queryKey: collabKeys.list(brand), exact: true });
    },
    onError: () => void client.invalidateQueries({ queryKey: collabKeys.one(brand, id) }),
  });
}


export interface CalendarFeed {
  readonly active: boolean;
  readonly createdAt: number | null;
  /** Only in the answer that made it: the URL is not kept. */
  readonly url?: string;
}

export const feedKey = (brand: string) => ['collaborations', brand, 'calendar-feed'] as const;

export function calendarFeedQuery(brand: string) {
  return queryOptions({
    queryKey: feedKey(brand),
    queryFn: async () => (await api.get<{ feed: CalendarFeed }>('collaborations/calendar-feed', asBrand(brand))).feed,
  });
}

/** Make a new feed URL (the old one stops) or revoke it. */
export function useCalendarFeed(brand: string) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('Calendar feed'),
    mutationFn: async (kind: 'renew' | 'revoke') =>
      kind === 'renew'
        ? (await api.post<{ feed: CalendarFeed }>('collaborations/calendar-feed', undefined, asBrand(brand))).feed
        : (await api.delete<{ feed: CalendarFeed }>('collaborations/calendar-feed', asBrand(brand))).feed,
    onSuccess: (feed) => {
      client.setQueryData(feedKey(brand), feed);
    },
  });
}
