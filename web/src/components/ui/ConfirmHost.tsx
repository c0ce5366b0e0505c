import { lazy, Suspense } from 'react';
import { usePendingConfirms } from './confirm';

// The dialog (and the modal it is built on) loads with the first question: most pages never ask one.
const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));

/** Shows the questions asked through confirm(), one at a time. */
export function ConfirmHost() {
  const [first] = usePendingConfirms();
  if (!first) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog key={first.id} item={first} />
    </Suspense>
  );
}
