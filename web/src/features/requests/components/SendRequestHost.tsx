import { lazy, Suspense } from 'react';
import { closeSendRequest, useSendRequestTarget } from '../send-request-store';

const SendRequestModal = lazy(() => import('./SendRequestModal').then((m) => ({ default: m.SendRequestModal })));

/** Mounted once by the app shell: the popup opened by openSendRequest(brand); its code loads on first use. */
export function SendRequestHost() {
  const target = useSendRequestTarget();
  if (!target) return null;
  return (
    <Suspense fallback={null}>
      <SendRequestModal
        brand={target.brand}
        onClose={closeSendRequest}
        onSent={(request) => target.onSent?.(request.id)}
      />
    </Suspense>
  );
}
