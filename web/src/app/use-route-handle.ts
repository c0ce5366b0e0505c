import { useMatches } from 'react-router';
import { isRouteHandle, type RouteHandle } from './route-types';

/** The handle of the deepest matched page route (title, area, access, meta). */
export function useRouteHandle(): RouteHandle | null {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return null;
}
