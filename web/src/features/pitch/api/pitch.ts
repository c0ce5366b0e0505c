import { useMutation, useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { paymentRefusal } from '@/features/subscriptions';
import { api, asBrand } from '@/lib/api';
import { leaveApp } from '@/lib/leave-app';
import { errorToast } from '@/lib/mutations';
import { applyCredits, refreshDashboard, type CreditsInfo } from '@/lib/session-state';
import { showToast, withNotice } from '@/lib/toast';
import { pitchKeys } from './keys';

export type FeatureStatus = 'pending' | 'live' | 'expired' | 'ended' | 'refused';

/** A Pitch Area feature as the API answers it (docs/api.md "Pitch Area"). */
export interface Feature {
  readonly id: string;
  readonly brand: { readonly id: number; readonly name: string; readonly logoUrl: string | null; readonly category: string };
  /** False: the name is masked ('A food & drink brand'), as in Matches. */
  readonly nameVisible: boolean;
  readonly title: string;
  readonly offer: string;
  readonly lookingFor: string;
  readonly collabKinds: readonly string[];
  readonly audience: string;
  readonly closingDate: string | null;
  readonly months: number;
  readonly status: FeatureStatus;
  readonly live: boolean;
  readonly createdAt: string | null;
  readonly approvedAt: string | null;
  readonly expiresAt: string | null;
  readonly own: boolean;
  /** Only on the owner's own feature. */
  readonly payWith?: 'credits' | 'product';
  readonly paid?: boolean;
  readonly paymentView?: 'not created' | 'pending approval' | 'paid' | 'live' | 'expired';
  readonly refusedReason?: string | null;
  /** Only on the owner's own feature: it may be ended early / withdrawn now (the server's rules). */
  readonly canEnd?: boolean;
  readonly canWithdraw?: boolean;
  /** Only on GET pitch/{id}: this brand's pitch to it, and whether it may pitch. */
  readonly pitch?: { readonly id: string; readonly status: string; readonly createdAt: string | null } | null;
  readonly canPitch?: boolean;
  /** Admin list only. */
  readonly accountId?: string;
}

export interface PitchOptions {
  readonly collabKinds: readonly string[];
  readonly categories: readonly string[];
  readonly terms: readonly string[];
  readonly months: readonly number[];
  readonly featureCost: number;
  readonly pitchCost: number;
}

export interface FeatureList {
  readonly features: readonly Feature[];
  readonly cursor: string | null;
  readonly options: PitchOptions;
}

export interface FeatureFilter {
  readonly kind: string;
  readonly category: string;
}

export interface MyFeatures {
  readonly features: readonly Feature[];
  readonly featureDone: NonNullable<CreditsInfo['featureDone']>;
  readonly options: PitchOptions;
}

export interface NewFeature {
  readonly title: string;
  readonly offer: string;
  readonly lookingFor: string;
  readonly collabKinds: readonly string[];
  readonly audience: string;
  readonly closingDate: string | null;
  readonly months: number;
  readonly acceptTerms: boolean;
}

function filterKey(filter: FeatureFilter): string {
  return `${filter.kind}|${filter.category}`;
}

export function listFeatures(brand: string, filter: FeatureFilter, cursor: string | null = null): Promise<FeatureList> {
  const params = new URLSearchParams();
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.category) params.set('category', filter.category);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return api.get<FeatureList>(query ? `pitch?${query}` : 'pitch', asBrand(brand));
}

/** The live features (newest first) for a filter; each visit asks again. */
export function useFeatureList(brand: string | null, filter: FeatureFilter): UseQueryResult<FeatureList> {
  return useQuery({
    queryKey: pitchKeys.list(brand ?? '', filterKey(filter)),
    queryFn: () => listFeatures(brand ?? '', filter),
    enabled: brand !== null,
    staleTime: 0,
  });
}

export function useFeature(brand: string | null, featureId: string): UseQueryResult<{ feature: Feature; options: PitchOptions }> {
  return useQuery({
    queryKey: pitchKeys.item(brand ?? '', featureId),
    queryFn: () => api.get<{ feature: Feature; options: PitchOptions }>(`pitch/${encodeURIComponent(featureId)}`, asBrand(brand ?? '')),
    enabled: brand !== null,
    staleTime: 0,
  });
}

export function useMyFeatures(brand: string | null): UseQueryResult<MyFeatures> {
  return useQuery({
    queryKey: pitchKeys.mine(brand ?? ''),
    queryFn: () => api.get<MyFeatures>('pitch/mine', asBrand(brand ?? '')),
    enabled: brand !== null,
    staleTime: 0,
  });
}

export async function createFeature(
  client: QueryClient,
  brand: string,
  body: NewFeature,
): Promise<{ feature: Feature; credits: CreditsInfo; notice?: string | null }> {
  const created = await api.post<{ feature: Feature; credits: CreditsInfo; notice?: string | null }>('pitch', body, asBrand(brand));
  applyCredits(client, created.credits);
  await afterChange(client);
  return created;
}

export async function endFeature(client: QueryClient, brand: string, featureId: string): Promise<{ message: string; feature: Feature }> {
  const ended = await api.delete<{ message: string; feature: Feature }>(`pitch/${encodeURIComponent(featureId)}`, asBrand(brand));
  await afterChange(client);
  return ended;
}

export interface PitchSent {
  readonly request: { readonly id: string };
  readonly credits: CreditsInfo;
  /** A brand that hides its name, whose message names it: it is shown with the name removed. */
  readonly notice?: string | null;
}

export async function pitchTo(client: QueryClient, brand: string, featureId: string, message: string): Promise<PitchSent> {
  const sent = await api.post<PitchSent>(`pitch/${encodeURIComponent(featureId)}/pitch`, { message }, asBrand(brand));
  applyCredits(client, sent.credits);
  await client.invalidateQueries({ queryKey: pitchKeys.forBrand(brand) });
  return sent;
}

/** A feature-only account pays its feature through billing's checkout: the page leaves for it. */
export function featureCheckout(brand: string, featureId: string): Promise<{ url: string }> {
  return api.post<{ url: string }>(`pitch/${encodeURIComponent(featureId)}/checkout`, {}, asBrand(brand));
}

async function afterChange(client: QueryClient): Promise<void> {
  await Promise.all([client.invalidateQueries({ queryKey: pitchKeys.all }), refreshDashboard(client)]);
}

// ---------------------------------------------------------------- admin

export function useAdminFeatures(status: string): UseQueryResult<{ features: readonly Feature[]; status: string }> {
  return useQuery({
    queryKey: pitchKeys.admin(status),
    queryFn: () => api.get<{ features: readonly Feature[]; status: string }>(`admin/features?status=${encodeURIComponent(status)}`),
    staleTime: 0,
  });
}

export async function approveFeature(client: QueryClient, featureId: string): Promise<{ feature: Feature }> {
  const done = await api.post<{ feature: Feature }>(`admin/features/${encodeURIComponent(featureId)}/approve`, {});
  await client.invalidateQueries({ queryKey: pitchKeys.all });
  return done;
}

/** What a refusal gave back: the credits, or the feature product's payment (refunded, or not yet if Stripe refused). */
export interface Refused {
  readonly feature: Feature;
  readonly creditsReturned: number;
  readonly payment?: { readonly amount: number; readonly currency: string; readonly refunded: boolean } | null;
}

export async function refuseFeature(client: QueryClient, featureId: string, reason: string): Promise<Refused> {
  const done = await api.post<Refused>(
    `admin/features/${encodeURIComponent(featureId)}/refuse`,
    { reason },
  );
  await client.invalidateQueries({ queryKey: pitchKeys.all });
  return done;
}

/** '2027-02-21T10:00:00Z' -> '21 Feb 2027' (UTC), for terms and closing dates. */
export function dayOf(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export const STATUS_LABEL: Readonly<Record<FeatureStatus, string>> = {
  pending: 'Pending approval',
  live: 'Live',
  expired: 'Expired',
  ended: 'Ended',
  refused: 'Not approved',
};

// ---------------------------------------------------------------- writes (mutations)

/** The owner ends (or withdraws) their feature; the answer's message shows in a toast. */
export function useEndFeature(brand: string) {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast('removeFeature'),
    mutationFn: (featureId: string) => endFeature(client, brand, featureId),
    onSuccess: (ended) => {
      showToast({ tone: 'success', title: ended.message });
    },
  });
}

/** A feature-only account pays its feature: the page leaves for the checkout. */
export function useFeatureCheckout(brand: string) {
  return useMutation({
    meta: errorToast("We couldn't open the checkout"),
    mutationFn: (featureId: string) => featureCheckout(brand, featureId),
    onSuccess: ({ url }) => {
      leaveApp(url);
    },
  });
}

/** An admin approves a paid feature: it goes live and its owner is emailed. */
export function useApproveFeature() {
  const client = useQueryClient();
  return useMutation({
    meta: errorToast("We couldn't approve it"),
    mutationFn: (feature: Feature) => approveFeature(client, feature.id),
    onSuccess: (_done, feature) => {
      showToast({ tone: 'success', title: 'Feature approved', message: `${feature.brand.name} is live in the Pitch Area and has been emailed.` });
    },
  });
}

/**
 * Creates a feature once the terms are accepted. A feature-only account then pays it at
 * checkout (the page leaves for it); a member's goes for approval, said in a toast. A payment
 * refusal asks again for the credits (the page opens the subscription overlay, which shows
 * them); what else failed is the form's to show, on its fields or in the terms dialog.
 */
export function useCreateFeature(brand: string, featureOnly: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewFeature) => {
      const created = await createFeature(client, brand, body);
      return { created, checkout: featureOnly ? await featureCheckout(brand, created.feature.id) : null };
    },
    onSuccess: ({ created, checkout }) => {
      if (checkout) {
        leaveApp(checkout.url);
        return;
      }
      showToast({
        tone: 'success',
        title: 'Feature sent for approval',
        message: withNotice("We normally approve features within 24 hours and we'll confirm by email.", created.notice),
      });
    },
    onError: (failure) => {
      if (paymentRefusal(failure)) void refreshDashboard(client);
    },
  });
}

/**
 * Pitches to a feature. Sent: a toast. A payment refusal asks again for the credits (the dialog
 * opens the subscription overlay); what else failed is the pitch dialog's to show.
 */
export function usePitchTo(brand: string, feature: Feature) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => pitchTo(client, brand, feature.id, message),
    onSuccess: (sent) => {
      showToast({
        tone: 'success',
        title: 'Pitch sent',
        message: withNotice(`We've let ${feature.brand.name} know. You'll hear from us when they reply.`, sent.notice),
      });
    },
    onError: (failure) => {
      if (paymentRefusal(failure)) void refreshDashboard(client);
    },
  });
}

/** An admin refuses a feature with a reason: what went back to the member is said in a toast; a refusal of it is the dialog's to show. */
export function useRefuseFeature() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ feature, reason }: { readonly feature: Feature; readonly reason: string }) => refuseFeature(client, feature.id, reason),
    onSuccess: (done) => {
      showToast({
        tone: 'success',
        title: 'Feature refused',
        message: done.creditsReturned
          ? `${done.creditsReturned} credits went back to the member.`
          : done.payment
            ? done.payment.refunded
              ? 'Their payment was refunded in full.'
              : "Their payment couldn't be refunded automatically: refund it from the member's account."
            : '',
      });
    },
  });
}
