import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { PageLoader } from '@/components/ui/PageLoader';
import { createMutationCache } from '@/lib/mutations';
import { getSession, subscribe } from '@/lib/session';

/** How long shared server data (dashboard, login check) is reused before another screen asks again. */
const SHARED_STALE_MS = 30_000;

/**
 * The app's QueryClient (TanStack Query): all server data lives in its cache, under
 * keys that name the selected brand (each feature's `api/keys.ts`).
 *
 * - Shared data is reused for 30 s across screens; lists and detail pages set
 *   `staleTime: 0`, so opening them again asks the server while the cached copy shows.
 * - No automatic retries: the API client already refreshes tokens on a 401, and a failed
 *   load shows its message with 'Try again'. Pollers opt into retries of their own.
 * - Every write is a mutation; its failure is told by the one MutationCache handler
 *   (lib/mutations.ts: an error toast titled by the write's `meta.errorTitle`).
 */
function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: createMutationCache(),
    defaultOptions: {
      queries: { staleTime: SHARED_STALE_MS, retry: false },
      mutations: { retry: false },
    },
  });
}

/**
 * App-wide providers: the one query cache, and the page-loading fallback. The cache is
 * cleared whenever the signed-in user changes (sign-out, forced sign-out, another account
 * signing in in another tab), so nothing of one member's data reaches the next.
 */
export function AppProvider({ children }: { readonly children: ReactNode }) {
  const [client] = useState(createQueryClient);

  useEffect(() => {
    let uid = getSession()?.uid ?? null;
    return subscribe(() => {
      const next = getSession()?.uid ?? null;
      if (next === uid) return;
      uid = next;
      client.clear();
    });
  }, [client]);

  return (
    <QueryClientProvider client={client}>
      <Suspense fallback={<PageLoader />}>{children}</Suspense>
    </QueryClientProvider>
  );
}
