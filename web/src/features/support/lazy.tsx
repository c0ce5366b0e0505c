import { lazy } from 'react';

/**
 * The footer's issue report box (admins, and every member on a development stack), loaded when
 * shown: a member's first load on a deployed stage does not carry it (BENCH web_initial_js_gz_kb).
 * Render it in a <Suspense> boundary.
 */
export const LazyIssueReportBox = lazy(() =>
  import('./components/IssueReportBox').then((m) => ({ default: m.IssueReportBox })),
);
