import { api } from '@/lib/api';
import { createResource, useResource, type ResourceState } from '@/lib/resource';
import { useSelectedBrand, useSession } from '@/lib/session';

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
}

/** GET dashboard or dashboard/{brand} answer (SPEC section 3). */
export interface DashboardResponse {
  readonly menuCounts?: Partial<MenuCounts>;
  readonly dashboard?: { readonly brandId?: number | string; readonly brandName?: string };
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

export function menuCountsOf(data: DashboardResponse | null): MenuCounts {
  return { ...NO_COUNTS, ...data?.menuCounts };
}

/** Whether a feature of this user has been live (feature-only users then see Requests and Billing). */
export function hasHadLiveFeature(data: DashboardResponse | null): boolean {
  return data?.credits?.featureDone?.hasHadLive === true;
}

export function dashboardPath(brand: string): string {
  return brand === 'default' ? 'dashboard' : `dashboard/${encodeURIComponent(brand)}`;
}

export const dashboardResource = createResource<DashboardResponse>((brand) =>
  api.get<DashboardResponse>(dashboardPath(brand)),
);

/** Dashboard data for the selected brand, shared by the menu, the brand switcher and the page. */
export function useDashboard(): ResourceState<DashboardResponse> {
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  return useResource(dashboardResource, signedIn ? brand : null);
}

/**
 * Puts the credits an action answered with (send, accept, decline, cancel) into the
 * loaded dashboard at once, so the badge is right before the next reload.
 */
export function applyCredits(credits: CreditsInfo | null | undefined): void {
  if (!credits) return;
  dashboardResource.update((data) => ({ ...data, credits: { ...data.credits, ...credits } }));
}

export function reloadDashboard(brand: string): Promise<DashboardResponse | null> {
  return dashboardResource.load(brand, { force: true });
}
