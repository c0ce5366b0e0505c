/**
 * The dashboard feature's public face: what other features may use. Everything else
 * in this folder is internal (lint forbids deep imports from other features).
 */
export {
  applyCredits,
  hasHadLiveFeature,
  menuAreasOf,
  menuCountsOf,
  NO_COUNTS,
  refreshDashboard,
  useCurrentBrandId,
  useDashboard,
  useRefreshDashboard,
  type CreditAddOn,
  type CreditsInfo,
  type DashboardResponse,
  type MenuAreas,
  type MenuCounts,
  type PlanInfo,
  type UserBrand,
  type WhatsNewItem,
} from './api/dashboard';
export { dashboardKeys } from './api/keys';
