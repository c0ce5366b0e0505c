import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { ConfirmHost } from '@/components/ui/ConfirmHost';
import { Toaster } from '@/components/ui/Toaster';
import { pageTitle } from '@/hooks/use-document-title';
import { useIsFeatureOnly } from '@/lib/login-check';
import { useRouteHandle } from './use-route-handle';

/** Sets "Tandem Hub: <title>" from the route table for every page. */
function RouteTitle() {
  const handle = useRouteHandle();
  const featureOnly = useIsFeatureOnly();
  const title = (featureOnly ? handle?.featureOnlyTitle : undefined) ?? handle?.title;
  useEffect(() => {
    if (title) document.title = pageTitle(title);
  }, [title]);
  return null;
}

/** Wraps every route: page title, toasts and the confirm dialog host. */
export function Root() {
  return (
    <>
      <RouteTitle />
      <Outlet />
      <Toaster />
      <ConfirmHost />
    </>
  );
}
