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

/** GET dashboard or dashboard/{brand} answer (SPEC section 3). */
export interface DashboardResponse {
  readonly menuCounts?: Partial<MenuCounts>;
  readonly dashboard?: { readonly brandId?: number | string; readonly brandName?: string };
  readonly credits?: {
    readonly active?: boolean;
    readonly featureDone?: { readonly hasHadLive?: boolean } | null;
  } | null;
  readonly userBrands?: readonly UserBrand[];
  readonly whatsNew?: readonly WhatsNewItem[];
  readonly matchRunOutstanding?: boolean;
  readonly matchRunId?: string | null;
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

export function reloadDashboard(brand: string): Promise<DashboardResponse | null> {
  return dashboardResource.load(brand, { force: true });
}
