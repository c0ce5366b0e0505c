import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { RouteErrorPage } from '@/components/errors/RouteErrorPage';
import { PublicLayout } from '@/components/layout/PublicLayout';
import { PageLoader } from '@/components/ui/PageLoader';
import { setAppNavigator } from '@/lib/force-logout';
import { isLoggedIn } from '@/lib/session';
import { accessRedirect } from './access';
import { Root } from './Root';
import { isRedirectRoute, routes, type AppRoute, type PageRoute, type RouteLayout } from './routes';
import type { RouteHandle } from './route-types';
import { AppShell } from './shell/AppShell';

export interface BuildOptions {
  readonly isLoggedIn?: () => boolean;
}

function pageRoute(route: PageRoute, loggedIn: () => boolean): RouteObject {
  const handle: RouteHandle = {
    ...route.meta,
    access: route.access,
    title: route.title,
    area: route.area ?? route.title,
    ...(route.featureOnlyTitle ? { featureOnlyTitle: route.featureOnlyTitle } : {}),
    ...(route.requires ? { requires: route.requires } : {}),
  };
  return {
    path: route.path,
    handle,
    loader: ({ request }) => {
      const target = accessRedirect(route.access, loggedIn(), new URL(request.url));
      return target === null ? null : redirect(target);
    },
    lazy: async () => ({ Component: await route.page() }),
  };
}

const layouts: Record<RouteLayout, RouteObject['element']> = {
  public: <PublicLayout />,
  publicWithFooter: <PublicLayout withFooter />,
  app: <AppShell />,
};

/** Turns the route table into React Router route objects (shared by the app and tests). */
export function buildRoutes(table: readonly AppRoute[] = routes, options: BuildOptions = {}): RouteObject[] {
  const loggedIn = options.isLoggedIn ?? isLoggedIn;
  const pages = table.filter((route): route is PageRoute => !isRedirectRoute(route));
  const layoutRoutes = (Object.keys(layouts) as RouteLayout[]).map((layout) => ({
    element: layouts[layout],
    children: pages.filter((page) => page.layout === layout).map((page) => pageRoute(page, loggedIn)),
  }));
  const redirects = table.filter(isRedirectRoute).map((route) => ({
    path: route.path,
    element: null,
    loader: () => redirect(route.redirectTo),
  }));

  return [
    {
      id: 'root',
      element: <Root />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoader />,
      children: [...layoutRoutes, ...redirects],
    },
  ];
}

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Lets the API client leave the page through the router (forced sign-out). */
export function connectRouter(router: Pick<AppRouter, 'state' | 'navigate'>): () => void {
  setAppNavigator({
    currentPath: () => {
      const { pathname, search, hash } = router.state.location;
      return pathname + search + hash;
    },
    go: (to) => {
      void router.navigate(to, { replace: true });
    },
  });
  return () => {
    setAppNavigator(null);
  };
}

export function createAppRouter() {
  const router = createBrowserRouter(buildRoutes());
  connectRouter(router);
  return router;
}
