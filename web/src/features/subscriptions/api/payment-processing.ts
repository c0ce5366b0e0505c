import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { dashboardKeys, refreshDashboard } from '@/lib/session-state';
import { ApiError, SessionEndedError } from '@/lib/api';
import { useSelectedBrand } from '@/lib/session';
import { DASHBOARD_RELOAD_TIMEOUT_MS, WEBHOOK_POLL_MS, WEBHOOK_RETRY_MS } from '../billing-rules';
import { fetchPaymentStatus, fetchWebhooksInProgress, type PaymentStatus } from './billing';
import { billingKeys } from './keys';

/** Failed checks tried again (every 2 s) before the page says so and offers 'Try again'. */
export const MAX_CHECK_RETRIES = 15;

/** Worth another try: anything but an ended session or an answer that will not change (404, 400). */
function retryable(error: unknown): boolean {
  if (error instanceof SessionEndedError) return false;
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}

const retry = (failures: number, error: unknown) => retryable(error) && failures < MAX_CHECK_RETRIES;

/** This flow's own checks: never asked again by the reload that ends it. */
const PROCESSING_PARTS: ReadonlySet<string> = new Set(['payment-status', 'webhooks-in-progress', 'payment-reload']);

/**
 * Whatever else the page behind shows may have changed with the payment (its own feature
 * now paid, the plan, credits): those queries are asked again too, not waited for. The
 * payment-processing address shows the same page as its parent, so that page is not mounted
 * again on the way back and would keep what it read before the payment was processed.
 */
function refreshTheRest(client: QueryClient): void {
  void client.invalidateQueries({
    predicate: ({ queryKey }) =>
      queryKey[0] !== dashboardKeys.all[0] &&
      !(queryKey[0] === billingKeys.all[0] && PROCESSING_PARTS.has(String(queryKey[2]))),
  });
}

/** Reloads the dashboards on screen, giving up waiting after 5 s (the reload goes on). */
async function reloadDashboard(client: QueryClient): Promise<'reloaded' | 'timed-out'> {
  refreshTheRest(client);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timed-out');
    }, DASHBOARD_RELOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([refreshDashboard(client).then(() => 'reloaded' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type ProcessingPhase =
  | { readonly phase: 'checking' }
  | { readonly phase: 'not-found' }
  | { readonly phase: 'check-failed'; readonly error: unknown; readonly retry: () => void }
  | { readonly phase: 'unpaid'; readonly status: PaymentStatus['status']; readonly reason: string | null }
  | { readonly phase: 'waiting' }
  | { readonly phase: 'reloading' }
  | { readonly phase: 'done'; readonly kind: PaymentStatus['kind'] | null };

/**
 * The payment flow of SPEC section 4 for one checkout session, as three queries:
 * 1. GET stripe/payment-status/{id};
 * 2. while the payment is paid but not yet processed, GET users/webhooks-in-progress
 *    every 500 ms until its count is 0 (a failed call is tried again after 2 s);
 * 3. the dashboard reload (at most 5 s waited for).
 * A null session id (the bare '/payment-processing' address) only reloads the dashboard.
 */
export function usePaymentProcessing(sessionId: string | null): ProcessingPhase {
  const brand = useSelectedBrand();
  const client = useQueryClient();
  const id = sessionId ?? '';
  const status = useQuery({
    queryKey: billingKeys.paymentStatus(brand, id),
    queryFn: () => fetchPaymentStatus(brand, id),
    enabled: sessionId !== null,
    retry,
    retryDelay: WEBHOOK_RETRY_MS,
    staleTime: Infinity,
    gcTime: 0,
  });
  const paid = status.data?.status === 'paid';
  const waiting = paid && status.data?.processed !== true;
  const webhooks = useQuery({
    queryKey: billingKeys.webhooks(brand, id),
    queryFn: () => fetchWebhooksInProgress(brand),
    enabled: waiting,
    retry,
    retryDelay: WEBHOOK_RETRY_MS,
    gcTime: 0,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (query.state.status !== 'error' && (query.state.data?.count ?? 1) > 0 ? WEBHOOK_POLL_MS : false),
  });
  const settled = sessionId === null || (paid && (status.data?.processed === true || webhooks.data?.count === 0));
  const reload = useQuery({
    queryKey: billingKeys.paymentReload(brand, id),
    queryFn: () => reloadDashboard(client),
    enabled: settled,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  if (sessionId !== null) {
    if (status.isError) {
      if (status.error instanceof ApiError && status.error.status === 404) return { phase: 'not-found' };
      return { phase: 'check-failed', error: status.error, retry: () => void status.refetch() };
    }
    if (!status.data) return { phase: 'checking' };
    if (!paid) return { phase: 'unpaid', status: status.data.status, reason: status.data.message ?? null };
    if (webhooks.isError) return { phase: 'check-failed', error: webhooks.error, retry: () => void webhooks.refetch() };
    if (!settled) return { phase: 'waiting' };
  }
  if (!reload.isSuccess) return { phase: 'reloading' };
  return { phase: 'done', kind: status.data?.kind ?? null };
}
