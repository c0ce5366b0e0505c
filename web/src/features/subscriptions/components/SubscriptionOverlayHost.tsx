import { lazy, Suspense } from 'react';
import { useSubscriptionOverlay } from '../overlay-store';

const SubscriptionOverlay = lazy(() => import('./SubscriptionOverlay').then((m) => ({ default: m.SubscriptionOverlay })));

/** Mounted once by the app shell: shows the overlay when a flow opens it (its code loads then). */
export function SubscriptionOverlayHost() {
  const request = useSubscriptionOverlay();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <SubscriptionOverlay request={request} />
    </Suspense>
  );
}
