import { useEffect, useRef } from 'react';
import { useResource, type Resource, type ResourceState } from '@/lib/resource';

/**
 * useResource, but a page opened again asks the server again: data kept from an
 * earlier visit stays on screen while the fresh answer loads (lists change between
 * visits: new matches, requests sent elsewhere).
 */
export function useFreshResource<T>(resource: Resource<T>, key: string | null): ResourceState<T> {
  const checked = useRef<string | null>(null);
  useEffect(() => {
    if (key === null || checked.current === key) return;
    const first = checked.current === null;
    checked.current = key;
    const current = resource.getState();
    if (first && current.key === key && current.status === 'success') void resource.load(key, { force: true });
  }, [resource, key]);
  return useResource(resource, key);
}
