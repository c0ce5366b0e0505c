export { TrustActions } from './components/TrustActions';
export { ReportDialog } from './components/ReportDialog';
export { REPORT_REASONS, useBlockBrand, useBlockedBrands, useReportBrand, type BlockedBrand } from './api/trust';
export { SuspendedNotice } from './components/SuspendedNotice';
