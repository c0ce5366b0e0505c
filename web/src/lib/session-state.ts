import { keepPreviousData, useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, asBrand } from './api';
import { useSelectedBrand, useSession } from './session';

/**
 * The app's session state: what the server says about the signed-in member for the selected
 * brand (GET dashboard, SPEC section 3): the current brand, the account's credits and rights,
 * the member's brands and the menu counts. One query, shared by the shell, the menu and every
 * feature; the Dashboard page shows it too. `lib/session.ts` keeps what the browser holds (tokens,
 * the selected brand); this file what the server answers about them.
 */

/** Query keys of the session state (the dashboard answer): one dashboard per selected brand. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  forBrand: (brand: string) => ['dashboard', brand] as const,
};


/** New-item counts shown on the main menu (SPEC section 3). */
export interface MenuCounts {
  readonly dashboard: number;
  readonly matches: number;
  readonly requests: number;
  readonly connections: number;
  readonly declines: number;
}

export interface UserBrand {
  readonly id: number | string;
  readonly name: string;
}

export interface WhatsNewItem {
  readonly title?: string;
  readonly text?: string;
  readonly link?: string;
}

/** A bought, recurring or gifted credit pack (SPEC section 3 "Add-on"). */
export interface CreditAddOn {
  readonly productName?: string;
  readonly type?: 'gifted' | 'add-on-one-time' | 'recurring' | (string & {});
  readonly total?: number;
  readonly available?: number;
  readonly valid?: { readonly to?: string | number | null } | null;
  readonly cancelled?: { readonly cancelled_at?: string | number | null; readonly cancels_at?: string | number | null } | null;
}

/** The account's credits and plan (SPEC section 3 "Credits info"); every field may be missing. */
export interface CreditsInfo {
  readonly available?: number;
  readonly total?: number;
  readonly totalMain?: number;
  readonly totalAddOns?: number;
  readonly active?: boolean;
  readonly trialling?: boolean;
  /** Card entered, waiting for a team member's approval (requests stay pending until then). */
  readonly pendingApproval?: boolean;
  readonly giftedOnly?: boolean;
  readonly fixedTerm?: boolean;
  readonly isYearly?: boolean;
  readonly hasSubscription?: boolean;
  readonly hasNewPayment?: boolean;
  readonly productsAllowed?: boolean;
  readonly addonsAllowed?: boolean;
  readonly mainSubscripionProductId?: string | null;
  readonly cancels?: { readonly cancel_at?: string | number | null; readonly cancelled_at?: string | number | null } | null;
  readonly expires?: { readonly subscription?: string | number | null; readonly period?: string | number | null } | null;
  readonly next?: { readonly to?: string | number | null; readonly credits?: number } | null;
  readonly notAllowedMessage?: string | null;
  readonly featureDone?: {
    readonly _id?: string;
    readonly approved?: boolean;
    readonly current?: boolean;
    readonly pending?: boolean;
    readonly paid?: boolean;
    readonly expires?: string | number | null;
    readonly hasHadLive?: boolean;
  } | null;
  readonly addOns?: readonly CreditAddOn[];
  /** Every product a member may hold, by id, with its prices (whatever is on sale to them now). */
  readonly products?: Readonly<Record<string, CreditsProduct>> | null;

  // The rights the server's one owner (tandem.domain.entitlements) gives the account. The web
  // reads them and re-derives none: a missing flag reads as "no".
  readonly canSend?: boolean;
  readonly canPitch?: boolean;
  readonly canFeature?: boolean;
  /** Other brands' names are shown to this account. */
  readonly namesShown?: boolean;
  /** The main plan's free trial is on offer (once per account). */
  readonly trialOffered?: boolean;
  readonly trial?: CreditsTrial | null;
  /** A Stripe customer: the payment portal can open. */
  readonly hasBillingAccount?: boolean;
  /** The payment portal manages a subscription (else it shows payments and invoices only). */
  readonly canManageSubscription?: boolean;
  readonly canUpgradeToYearly?: boolean;
  readonly paymentFailed?: boolean;
  readonly featureOnly?: boolean;
  readonly recurringAddonsAllowed?: boolean;
  /** A feature-only account may pay for its feature now. */
  readonly featureProductsAllowed?: boolean;
  /** The menu areas this account includes (for the selected brand). */
  readonly areas?: MenuAreas | null;
  readonly plan?: PlanInfo | null;
}

/** The free trial's one decision: its length, credits and what happens at its end. */
export interface CreditsTrial {
  readonly days?: number;
  readonly credits?: number;
  readonly terms?: readonly string[];
}

/** Credits info's `areas`: the menu areas the account includes. */
export interface MenuAreas {
  readonly matches?: boolean;
  readonly connections?: boolean;
  readonly declines?: boolean;
  readonly 'send-requests'?: boolean;
  readonly 'collab-ideas'?: boolean;
  readonly collaborations?: boolean;
  readonly 'video-guides'?: boolean;
  readonly requests?: boolean;
  readonly billing?: boolean;
}

export type PlanState =
  | 'none'
  | 'pending_approval'
  | 'active'
  | 'trialling'
  | 'cancelled'
  | 'fixed_term'
  | 'gifted'
  | 'feature_only';

export type PlanKind = 'monthly' | 'yearly' | 'fixed_term' | 'trial' | 'granted' | 'gifted';

/** Credits info's `plan`: the plan in force as the Billing page tells it. */
export interface PlanInfo {
  readonly state?: PlanState | (string & {});
  readonly kind?: PlanKind | (string & {}) | null;
  readonly source?: 'stripe' | 'tandem' | (string & {}) | null;
  /** One true sentence about the plan (the Billing page's lead line). */
  readonly description?: string;
  readonly renews?: boolean;
  readonly renewsOn?: string | null;
  readonly endsOn?: string | null;
  readonly trialEndsOn?: string | null;
  /** The plan's next month of credits (a yearly plan's come monthly). */
  readonly nextCredits?: { readonly on?: string | null; readonly credits?: number } | null;
}

/** A product in Credits info's `products` (SPEC section 3). */
export interface CreditsProduct {
  readonly name?: string;
  readonly type?: string;
  readonly prices?: Partial<
    Record<
      'monthly' | 'yearly' | 'one_time',
      readonly {
        readonly id: string;
        readonly unit_amount: number;
        readonly currency?: string;
        readonly label?: string | null;
        readonly months?: number | null;
        readonly type?: string;
      }[]
    >
  >;
}

/** GET dashboard or dashboard/{brand} answer (SPEC section 3). */
export interface DashboardResponse {
  readonly menuCounts?: Partial<MenuCounts>;
  readonly dashboard?: {
    readonly brandId?: number | string;
    readonly brandName?: string;
    /** Suspended by the team (issue 27): the dashboard shows a notice with a way to reply. */
    readonly suspended?: boolean;
  };
  readonly credits?: CreditsInfo | null;
  readonly userBrands?: readonly UserBrand[];
  readonly whatsNew?: readonly WhatsNewItem[];
  readonly matchRunOutstanding?: boolean;
  readonly matchRunId?: string | null;
  /** This member sees other brands' names in Matches (has a subscription). */
  readonly showingBrandNames?: boolean;
  /** Brand names are shown in Matches platform-wide. */
  readonly showingBrandNamesGlobal?: boolean;
  /** The selected brand's own name is visible to others (not hidden). */
  readonly brandInfoPublic?: boolean;
  readonly globalMessage?: string;
}

export const NO_COUNTS: MenuCounts = { dashboard: 0, matches: 0, requests: 0, connections: 0, declines: 0 };

export function menuCountsOf(data: DashboardResponse | null | undefined): MenuCounts {
  return { ...NO_COUNTS, ...data?.menuCounts };
}

/** Whether a feature of this user has been live (what the feature-only dashboard suggests next). */
export function hasHadLiveFeature(data: DashboardResponse | null | undefined): boolean {
  return data?.credits?.featureDone?.hasHadLive === true;
}

/** The menu areas the account includes (credits.areas), or null until the dashboard says. */
export function menuAreasOf(data: DashboardResponse | null | undefined): MenuAreas | null {
  return data?.credits?.areas ?? null;
}

export function dashboardPath(brand: string): string {
  return brand === 'default' ? 'dashboard' : `dashboard/${encodeURIComponent(brand)}`;
}

/**
 * Dashboard data for the selected brand, shared by the menu, the brand switcher and the
 * page. While another brand's dashboard loads, the previous one stays on screen.
 */
export function useDashboard(): UseQueryResult<DashboardResponse> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useQuery({
    queryKey: dashboardKeys.forBrand(brand),
    queryFn: () => api.get<DashboardResponse>(dashboardPath(brand), asBrand(brand)),
    enabled: signedIn,
    placeholderData: keepPreviousData,
  });
}

/** Asks the server again for the dashboards on screen (others reload when next shown). */
export function refreshDashboard(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: dashboardKeys.all });
}

/** `refreshDashboard` bound to the app's query cache. */
export function useRefreshDashboard(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => refreshDashboard(client), [client]);
}

/**
 * Credits info's fields that belong to the brand a dashboard is for, not to the account: the
 * brand's Pitch Area feature and what follows from it (the feature-only areas, paying for the
 * feature).
 */
const BRAND_FIELDS = ['featureDone', 'areas', 'featureProductsAllowed'] as const;

/**
 * Puts the credits an action answered with (send, pitch, accept, decline, cancel, create a
 * feature) into every loaded dashboard at once, so the badge is right before the next reload.
 * The answer replaces the account's credits info whole (the server builds every field of it,
 * rights included); each dashboard keeps only its own brand's fields (featureDone, areas,
 * featureProductsAllowed), which the dashboard reload that follows every such action brings.
 */
export function applyCredits(client: QueryClient, credits: CreditsInfo | null | undefined): void {
  if (!credits) return;
  client.setQueriesData<DashboardResponse>({ queryKey: dashboardKeys.all }, (data) => {
    if (!data) return data;
    const kept: Record<string, unknown> = {};
    for (const field of BRAND_FIELDS) {
      if (data.credits?.[field] !== undefined) kept[field] = data.credits[field];
    }
    return { ...data, credits: { ...credits, ...kept } };
  });
}

/** The id of the brand the member acts for, once known ('default' resolved by the dashboard). */
export function useCurrentBrandId(): string | null {
  const selected = useSelectedBrand();
  const { data } = useDashboard();
  if (selected !== 'default') return selected;
  const id = data?.dashboard?.brandId ?? data?.userBrands?.[0]?.id;
  return id === undefined ? null : String(id);
}

/** The team suspended the selected brand (issue 27): it can't send requests or pitches, so no page offers to. */
export function useSelectedBrandSuspended(): boolean {
  return useDashboard().data?.dashboard?.suspended === true;
}
