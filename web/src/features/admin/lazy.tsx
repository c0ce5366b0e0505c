import { lazy } from 'react';

/**
 * What the shell shows admins only (their menu, and developer mode's impersonation field),
 * loaded when an admin is signed in: a member's first load does not carry it (BENCH
 * web_initial_js_gz_kb). Render them in a <Suspense> boundary.
 */
export const LazyAdminMenu = lazy(() => import('./components/AdminMenu').then((m) => ({ default: m.AdminMenu })));
export const LazyImpersonateField = lazy(() =>
  import('./components/ImpersonateField').then((m) => ({ default: m.ImpersonateField })),
);
