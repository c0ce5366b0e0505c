import { ComingSoon } from '@/components/ui/ComingSoon';
import { useRouteHandle } from './use-route-handle';

/** The placeholder page for areas still being built, named from the route table. */
export function ComingSoonRoute() {
  const handle = useRouteHandle();
  return <ComingSoon title={handle?.area ?? 'This page'} showHomeLink={handle?.access === 'private'} />;
}
