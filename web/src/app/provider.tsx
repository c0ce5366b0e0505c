import { Suspense, type ReactNode } from 'react';
import { PageLoader } from '@/components/ui/PageLoader';

/** App-wide providers. Later: toasts, modal host, global message bar. */
export function AppProvider({ children }: { readonly children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}
