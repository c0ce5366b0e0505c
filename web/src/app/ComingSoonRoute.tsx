import { ComingSoon } from '@/components/ui/ComingSoon';
import { useRouteHandle } from './use-route-handle';

/**
 * The placeholder page for areas still being built, named from the route table: its
 * heading is the page's title (as the tab says), with the area it belongs to above.
 */
export function ComingSoonRoute() {
  const handle = useRouteHandle();
  return (
    <ComingSoon
      title={handle?.title ?? 'This page'}
      area={handle?.area}
      showHomeLink={handle?.access === 'private'}
    />
  );
}
