import type { AppRoute, AreaRequirement, PageRoute, RouteMeta } from './route-types';

export type { AppRoute, AreaRequirement, PageRoute, RedirectRoute, RouteAccess, RouteLayout, RouteMeta } from './route-types';
export { isRedirectRoute } from './route-types';

/**
 * The route table: every path of SPEC section 2, with who may see it, its shell
 * and its page title. Pages load lazily (one chunk each). Paths match with or
 * without a trailing slash ('/login' serves '/login/' too). Areas still to be
 * built share one placeholder page that names the area.
 */
export const NOT_FOUND_PATH = '/404';

const pages = {
  login: () => import('@/features/auth/components/LoginPage').then((m) => m.LoginPage),
  instantLogin: () =>
    import('@/features/auth/components/InstantLoginPage').then((m) => m.InstantLoginPage),
  createAccount: () =>
    import('@/features/auth/components/CreateAccountPage').then((m) => m.CreateAccountPage),
  forgotPassword: () =>
    import('@/features/auth/components/ForgotPasswordPage').then((m) => m.ForgotPasswordPage),
  setupPassword: () =>
    import('@/features/auth/components/SetupPasswordPage').then((m) => m.SetupPasswordPage),
  setupPasswordDirect: () =>
    import('@/features/auth/components/SetupPasswordPage').then((m) => m.SetupPasswordDirectPage),
  resetPassword: () =>
    import('@/features/auth/components/SetPasswordPage').then((m) => m.ResetPasswordPage),
  createPassword: () =>
    import('@/features/auth/components/SetPasswordPage').then((m) => m.CreatePasswordPage),
  confirmEmail: () =>
    import('@/features/auth/components/ConfirmEmailPage').then((m) => m.ConfirmEmailPage),
  maintenance: () =>
    import('@/features/misc/components/MaintenancePage').then((m) => m.MaintenancePage),
  notFound: () => import('@/features/misc/components/NotFoundPage').then((m) => m.NotFoundPage),
  dashboard: () =>
    import('@/features/dashboard/components/DashboardPage').then((m) => m.DashboardPage),
  stopWelcomeEmails: () =>
    import('@/features/auth/components/StopWelcomeEmailsPage').then((m) => m.StopWelcomeEmailsPage),
  comingSoon: () => import('./ComingSoonRoute').then((m) => m.ComingSoonRoute),
  brands: () => import('@/features/brands/components/BrandsPage').then((m) => m.BrandsPage),
  profile: () => import('@/features/account/components/ProfilePage').then((m) => m.ProfilePage),
  account: () => import('@/features/account/components/AccountPage').then((m) => m.AccountPage),
  blocked: () => import('@/features/trust/components/BlockedPage').then((m) => m.BlockedPage),
  matches: () => import('@/features/matches/components/MatchesPage').then((m) => m.MatchesRoute),
  matchBrand: () => import('@/features/matches/components/BrandDetailPage').then((m) => m.MatchBrandPage),
  matchSearch: () => import('@/features/matches/components/SearchPage').then((m) => m.SearchPage),
  publicBrand: () => import('@/features/matches/components/BrandDetailPage').then((m) => m.PublicBrandPage),
  requests: () => import('@/features/requests/components/RequestsPage').then((m) => m.RequestsPage),
  request: () => import('@/features/requests/components/RequestDetailPage').then((m) => m.RequestDetailPage),
  connections: () =>
    import('@/features/requests/components/ConnectionsPage').then((m) => m.ConnectionsPage),
  connection: () =>
    import('@/features/requests/components/ConnectionDetailPage').then((m) => m.ConnectionDetailPage),
  declines: () => import('@/features/requests/components/DeclinesPage').then((m) => m.DeclinesPage),
  subscriptions: () =>
    import('@/features/subscriptions/components/SubscriptionsPage').then((m) => m.SubscriptionsPage),
  collabIdeas: () => import('@/features/collab/components/CollabIdeasPage').then((m) => m.CollabIdeasPage),
  collabCalendar: () => import('@/features/collab/components/CalendarPage').then((m) => m.CalendarPage),
  memberCollabs: () =>
    import('@/features/collab/components/MemberCollabsPage').then((m) => m.MemberCollabsPage),
  collaborations: () =>
    import('@/features/collaborations/components/CollaborationsPage').then((m) => m.CollaborationsPage),
  collaboration: () =>
    import('@/features/collaborations/components/CollaborationPage').then((m) => m.CollaborationPage),
  planCollaboration: () =>
    import('@/features/collaborations/components/PlanCollaborationPage').then((m) => m.PlanCollaborationPage),
  notifications: () =>
    import('@/features/notifications/components/NotificationsPage').then((m) => m.NotificationsPage),
  unsubscribe: () =>
    import('@/features/notifications/components/UnsubscribePage').then((m) => m.UnsubscribePage),
  quickAction: () =>
    import('@/features/quick-action/components/QuickActionPage').then((m) => m.QuickActionPage),
  pitch: () => import('@/features/pitch/components/PitchPage').then((m) => m.PitchPage),
  newFeature: () => import('@/features/pitch/components/NewFeaturePage').then((m) => m.NewFeaturePage),
  feature: () => import('@/features/pitch/components/FeatureDetailPage').then((m) => m.FeatureDetailPage),
  jumpToFeature: () => import('@/features/pitch/components/FeatureDetailPage').then((m) => m.JumpToFeaturePage),
  adminFeatures: () => import('@/features/pitch/components/AdminFeaturesPage').then((m) => m.AdminFeaturesPage),
  admin: () => import('@/features/admin/components/AdminPage').then((m) => m.AdminPage),
} as const;

function loggedOutOnly(path: string, title: string, page: PageRoute['page']): PageRoute {
  return { path, title, page, access: 'loggedOutOnly', layout: 'public' };
}

/** A signed-in page of the app. */
function privatePage(path: string, title: string, page: PageRoute['page'], area: string = title, meta?: RouteMeta): PageRoute {
  return { path, title, area, meta, page, access: 'private', layout: 'app' };
}

/**
 * A page's payment-processing variants: they show the page itself, and the app shell's
 * PaymentProcessingHost runs the payment flow over it (SPEC section 2).
 */
function withPayment(
  path: string,
  title: string,
  area: string,
  subscriptionType: NonNullable<RouteMeta['subscriptionType']>,
  { bare = true, page = pages.comingSoon }: { bare?: boolean; page?: PageRoute['page'] } = {},
): PageRoute[] {
  const meta: RouteMeta = { subscriptionType, paymentProcessing: true };
  return [
    ...(bare ? [privatePage(`${path}/payment-processing`, title, page, area, meta)] : []),
    privatePage(`${path}/payment-processing/:checkoutSessionId`, title, page, area, meta),
  ];
}

/**
 * Routes of one area of the account (SPEC section 2: a feature-only account has no Matches,
 * Connections, Declines, Collab Ideas, nor sent requests). Which accounts include the area is
 * the server's to say (credits info's `areas`, from tandem.domain.entitlements; the API refuses
 * the same areas): a member whose account does not is sent to `to` (AreaGate in the shell).
 */
function inArea(area: AreaRequirement['area'], to: string, ...pageRoutes: PageRoute[]): PageRoute[] {
  return pageRoutes.map((route) => ({ ...route, requires: { area, otherwise: to } }));
}

/** A feature-only member's received requests are pitches: their menu says 'Pitches Received', so does the title. */
function pitchesReceived(route: PageRoute): PageRoute {
  return { ...route, featureOnlyTitle: 'Pitches Received' };
}

export const routes: readonly AppRoute[] = [
  // Logged-out only
  loggedOutOnly('/login', 'Login', pages.login),
  loggedOutOnly('/create-account', 'Create account', pages.createAccount),
  loggedOutOnly('/forgot-password', 'Forgot password', pages.forgotPassword),
  loggedOutOnly('/setup-password', 'Set up password', pages.setupPassword),
  loggedOutOnly('/setup-password-direct', 'Set up password', pages.setupPasswordDirect),
  loggedOutOnly('/reset-password/:code', 'Reset password', pages.resetPassword),
  loggedOutOnly('/create-password/:code', 'Create password', pages.createPassword),

  // Instant login: exempt from the logged-out-only rule
  { path: '/login/:code/:id', title: 'Signing in', page: pages.instantLogin, access: 'instantLogin', layout: 'public' },
  { path: '/login/:code/:id/:status', title: 'Signing in', page: pages.instantLogin, access: 'instantLogin', layout: 'public' },

  // Public
  { path: '/confirm-email/*', title: 'Confirm email', page: pages.confirmEmail, access: 'public', layout: 'public' },
  { path: '/unsubscribe/:token', title: 'Unsubscribe', page: pages.unsubscribe, access: 'public', layout: 'public' },
  { path: '/maintenance', title: 'Maintenance', page: pages.maintenance, access: 'public', layout: 'public' },
  {
    path: '/quick-action/:action/:actioner/:actionee/:unique',
    title: 'Quick action',
    page: pages.quickAction,
    access: 'public',
    layout: 'publicWithFooter',
  },
  { path: NOT_FOUND_PATH, title: 'Page not found', page: pages.notFound, access: 'public', layout: 'public' },

  // Private: dashboard and account
  { path: '/', title: 'Dashboard', page: pages.dashboard, access: 'private', layout: 'app' },
  { path: '/stop-welcome-emails/:email', title: 'Welcome emails', page: pages.stopWelcomeEmails, access: 'private', layout: 'app' },
  privatePage('/account', 'Account', pages.account),
  privatePage('/account/brands', 'Brands', pages.brands),
  privatePage('/account/profile', 'Profile', pages.profile),
  privatePage('/account/notifications', 'Notifications', pages.notifications),
  privatePage('/account/blocked', 'Blocked brands', pages.blocked, 'Account'),
  privatePage('/account/subscriptions', 'Billing', pages.subscriptions, 'Billing', { subscriptionType: 'account' }),
  ...withPayment('/account/subscriptions', 'Billing', 'Billing', 'account', { bare: false, page: pages.subscriptions }),

  // Requests
  pitchesReceived(privatePage('/requests', 'Requests received', pages.requests, 'Requests', { subscriptionType: 'requests' })),
  pitchesReceived(privatePage('/requests/received', 'Requests received', pages.requests, 'Requests', { subscriptionType: 'requests' })),
  ...withPayment('/requests', 'Requests received', 'Requests', 'requests', { bare: false, page: pages.requests }).map(pitchesReceived),
  ...inArea(
    'send-requests',
    '/requests/received',
    privatePage('/requests/sent', 'Requests sent', pages.requests, 'Requests', { subscriptionType: 'requests' }),
    privatePage('/requests/sent/:userBrand', 'Requests sent', pages.requests, 'Requests', { subscriptionType: 'requests' }),
  ),
  pitchesReceived(privatePage('/requests/:userBrand', 'Requests received', pages.requests, 'Requests', { subscriptionType: 'requests' })),
  pitchesReceived(privatePage('/requests/received/:userBrand', 'Requests received', pages.requests, 'Requests', { subscriptionType: 'requests' })),
  // Any other filter: the page sends it to /404.
  privatePage('/requests/:filter/:userBrand', 'Requests', pages.requests, 'Requests', { subscriptionType: 'requests' }),
  privatePage('/requests/received/:userBrand/:_id', 'Request', pages.request, 'Requests', { subscriptionType: 'request' }),
  ...['/payment-processing', '/payment-processing/:checkoutSessionId'].map((tail) =>
    privatePage(`/requests/received/:userBrand/:_id${tail}`, 'Request', pages.request, 'Requests', {
      subscriptionType: 'request',
      paymentProcessing: true,
    }),
  ),

  // Connections
  ...inArea(
    'connections',
    '/',
    privatePage('/connections', 'Connections', pages.connections),
    privatePage('/connections/connected', 'Connections', pages.connections),
    privatePage('/connections/:userBrand', 'Connections', pages.connections),
    privatePage('/connections/:userBrand/:_id', 'Connection', pages.connection, 'Connections'),
  ),

  // Collaborations (issue 41)
  ...inArea(
    'collaborations',
    '/',
    privatePage('/collaborations', 'Collaborations', pages.collaborations),
    privatePage('/collaborations/new', 'Plan a collaboration', pages.planCollaboration, 'Collaborations'),
    privatePage('/collaborations/:id', 'Collaboration', pages.collaboration, 'Collaborations'),
  ),

  // Declines
  ...inArea(
    'declines',
    '/',
    privatePage('/declines', 'Declined by others', pages.declines, 'Declines'),
    privatePage('/declines/out', 'Declined by others', pages.declines, 'Declines'),
    privatePage('/declines/in', 'Declined by you', pages.declines, 'Declines'),
    privatePage('/declines/out/:userBrand', 'Declined by others', pages.declines, 'Declines'),
    privatePage('/declines/in/:userBrand', 'Declined by you', pages.declines, 'Declines'),
    privatePage('/declines/:userBrand', 'Declined by others', pages.declines, 'Declines'),
  ),

  // Collab Ideas
  ...inArea(
    'collab-ideas',
    '/',
    privatePage('/inspiration', 'Collab Ideas', pages.collabIdeas),
    privatePage('/inspiration/ideas', 'Collab Ideas', pages.collabIdeas),
    privatePage('/inspiration/calendar', 'Collab calendar', pages.collabCalendar, 'Collab Ideas'),
    privatePage('/inspiration/member-collabs', 'Member collabs', pages.memberCollabs, 'Collab Ideas'),
  ),

  // Matches
  ...inArea(
    'matches',
    '/',
    privatePage('/matches', 'Matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/potentials', 'Potential matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/saved', 'Saved matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/search', 'Search brands', pages.matchSearch, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/search/:userBrand', 'Search brands', pages.matchSearch, 'Matches', {
      subscriptionType: 'matches',
    }),
    privatePage('/matches/:userBrand', 'Matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/potentials/:userBrand', 'Potential matches', pages.matches, 'Matches', {
      subscriptionType: 'matches',
    }),
    privatePage('/matches/saved/:userBrand', 'Saved matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    privatePage('/matches/brand/:_id', 'Match', pages.matchBrand, 'Matches', { subscriptionType: 'match' }),
    privatePage('/matches/:userBrand/brand/:_id', 'Match', pages.matchBrand, 'Matches', { subscriptionType: 'match' }),
    privatePage('/matches/brands/:brandIds', 'Matches', pages.matches, 'Matches', { subscriptionType: 'matches' }),
    ...withPayment('/matches', 'Matches', 'Matches', 'matches', { bare: false, page: pages.matches }),
    ...withPayment('/matches/brand/:_id', 'Match', 'Matches', 'match', { bare: false, page: pages.matchBrand }),
  ),

  // Brand pages
  privatePage('/brand/:_id', 'Brand', pages.publicBrand),
  privatePage('/brand/:userBrand/:_id', 'Brand', pages.publicBrand),

  // Pitch Area
  privatePage('/pitch', 'Pitch Area', pages.pitch, 'Pitch Area', { subscriptionType: 'pitch' }),
  privatePage('/pitch/new', 'Feature your brand', pages.newFeature, 'Pitch Area', { subscriptionType: 'pitch' }),
  privatePage('/pitch/:_id', 'Pitch', pages.feature, 'Pitch Area', { subscriptionType: 'pitch' }),
  privatePage('/pitch/jump/:_id', 'Pitch', pages.jumpToFeature, 'Pitch Area', { subscriptionType: 'pitch' }),
  ...withPayment('/pitch/:_id', 'Pitch', 'Pitch Area', 'pitch', { page: pages.feature }),
  ...withPayment('/pitch', 'Pitch Area', 'Pitch Area', 'pitch', { page: pages.pitch }),
  privatePage('/admin/features', 'Features to approve', pages.adminFeatures, 'Admin'),

  // Admin console (admins; anyone else is told so). /admin/features is the Pitch Area's.
  privatePage('/admin', 'Admin', pages.admin),
  privatePage('/admin/:section', 'Admin', pages.admin),

  // Anything else
  { path: '*', redirectTo: NOT_FOUND_PATH },
];
