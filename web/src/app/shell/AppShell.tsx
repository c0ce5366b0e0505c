import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { AppLayout } from '@/components/layout/AppLayout';
import { Footer } from '@/components/layout/Footer';
import { MessageBar } from '@/components/layout/MessageBar';
import { PageLoader } from '@/components/ui/PageLoader';
import { config } from '@/config/env';
import { LazyAdminMenu, LazyImpersonateField } from '@/features/admin';
import { logout } from '@/features/auth';
import { menuAreasOf, menuCountsOf, useDashboard } from '@/lib/session-state';
import { BrandSwitcher } from '@/features/navigation/components/BrandSwitcher';
import { MainMenu } from '@/features/navigation/components/MainMenu';
import { UserMenu } from '@/features/navigation/components/UserMenu';
import { MatchRunWatcher } from '@/features/matches';
import { GuideButton, guidePageOf } from '@/features/onboarding';
import { buildMainMenu, buildUserMenuLinks, type MenuContext } from '@/features/navigation/menu';
import { SendRequestHost } from '@/features/requests';
import { CreditsBadge, PaymentProcessingHost, SubscriptionOverlayHost } from '@/features/subscriptions';
import { LazyIssueReportBox } from '@/features/support/lazy';
import { useIsFeatureOnly, useLoginCheck } from '@/lib/login-check';
import { setMenuSize, useMenuSize } from '@/lib/preferences';
import { setSelectedBrand, useSelectedBrand, useSession } from '@/lib/session';
import { areaRedirect } from '../access';
import type { AreaRequirement } from '../route-types';
import { useRouteHandle } from '../use-route-handle';
import { ShellPopups, type ShellPopup } from './ShellPopups';
import { useShellMessages } from './use-shell-messages';

/** The signed-in app: menus, brand switcher, message bar, footer and shell popups around the page. */
/**
 * The page, or, for a route of an area the account does not include (the server's answer:
 * credits info's `areas`), the place its route names instead. A feature-only member (the
 * accounts that lack areas) waits for that answer rather than seeing the page first.
 */
function AreaGate({
  requires,
  areas,
  waiting,
}: {
  readonly requires: AreaRequirement | undefined;
  readonly areas: MenuContext['areas'];
  readonly waiting: boolean;
}) {
  const elsewhere = areaRedirect(requires, areas);
  if (elsewhere !== null) return <Navigate to={elsewhere} replace />;
  if (requires && areas === null && waiting) return <PageLoader />;
  return <Outlet />;
}

export function AppShell() {
  const session = useSession();
  const navigate = useNavigate();
  const brand = useSelectedBrand();
  const dashboard = useDashboard();
  const check = useLoginCheck();
  const featureOnly = useIsFeatureOnly();
  const menuSize = useMenuSize();
  const messages = useShellMessages(check.data);
  const [popup, setPopup] = useState<ShellPopup | null>(null);
  const queryClient = useQueryClient();
  const handle = useRouteHandle();
  const guidePage = guidePageOf(handle?.area);

  // Between a forced sign-out and the navigation to /login.
  if (!session) return <PageLoader />;

  const context: MenuContext = {
    counts: menuCountsOf(dashboard.data),
    featureOnly,
    areas: menuAreasOf(dashboard.data),
  };
  const isAdmin = session.sessionInfo.access === 'admin';
  const mini = menuSize === 'mini';

  // Ending the session clears the query cache (AppProvider watches the signed-in user).
  const signOut = async () => {
    await logout();
    await navigate('/login/', { replace: true });
  };

  return (
    <AppLayout
      mini={mini}
      messageBar={<MessageBar messages={messages} />}
      headerEnd={
        <>
          <GuideButton key={guidePage} pageName={featureOnly ? null : guidePage} />
          <CreditsBadge credits={dashboard.data?.credits} />
          <BrandSwitcher brands={dashboard.data?.userBrands ?? []} selected={brand} onSelect={setSelectedBrand} />
          <UserMenu
            initials={session.initials}
            name={session.name}
            email={check.data?.email}
            links={buildUserMenuLinks(context)}
            onHelp={() => {
              setPopup('help');
            }}
            onLogout={() => void signOut()}
          />
        </>
      }
      nav={
        <>
          <MainMenu
            entries={buildMainMenu(context)}
            mini={mini}
            onToggleMini={() => {
              setMenuSize(mini ? 'full' : 'mini');
            }}
            onAction={setPopup}
          />
          {isAdmin && (
            <Suspense fallback={null}>
              <LazyAdminMenu mini={mini} />
            </Suspense>
          )}
        </>
      }
      footer={
        <Footer version={isAdmin ? config.version : undefined}>
          {/* Admins' and developers' tools load only for them (features/admin/lazy.tsx, features/support/lazy.tsx). */}
          <Suspense fallback={null}>
            {(isAdmin || config.isDev) && <LazyIssueReportBox />}
            {isAdmin && config.isDev && <LazyImpersonateField onChange={() => void queryClient.resetQueries()} />}
          </Suspense>
        </Footer>
      }
    >
      <AreaGate requires={handle?.requires} areas={context.areas} waiting={featureOnly && dashboard.isPending} />
      {/* Match runs are not part of a feature-only account (the API refuses run-check to them). */}
      {!featureOnly && <MatchRunWatcher />}
      <SendRequestHost />
      <SubscriptionOverlayHost />
      <PaymentProcessingHost />
      <ShellPopups
        firstName={session.firstName}
        check={check.data}
        isAdmin={isAdmin}
        open={popup}
        onClose={() => {
          setPopup(null);
        }}
      />
    </AppLayout>
  );
}
