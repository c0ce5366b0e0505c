import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { RouteErrorPage } from '@/components/errors/RouteErrorPage';
import { AppLayout } from '@/components/layout/AppLayout';
import { PublicLayout } from '@/components/layout/PublicLayout';
import { PageLoader } from '@/components/ui/PageLoader';
import { SignOutButton } from '@/features/auth/components/SignOutButton';
import { isLoggedIn } from '@/lib/session';
import { accessRedirect } from './access';
import { isRedirectRoute, routes, type AppRoute, type PageRoute, type RouteLayout } from './routes';

export interface BuildOptions {
  readonly isLoggedIn?: () => boolean;
}

function pageRoute(route: PageRoute, loggedIn: () => boolean): RouteObject {
  return {
    path: route.path,
    handle: { access: route.access, ...route.meta },
    loader: ({ request }) => {
      const target = accessRedirect(route.access, loggedIn(), new URL(request.url));
      return target === null ? null : redirect(target);
    },
    lazy: async () => ({ Component: await route.page() }),
  };
}

const layouts: Record<RouteLayout, RouteObject['element']> = {
  public: <PublicLayout />,
  app: <AppLayout actions={<SignOutButton />} />,
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
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoader />,
      children: [...layoutRoutes, ...redirects],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
