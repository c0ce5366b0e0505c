import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { dashboardKeys, refreshDashboard, type DashboardResponse } from '@/lib/session-state';
import { useSelectedBrand } from '@/lib/session';
import { fetchLastWebhookUpdate } from '../api/billing';
import { billingKeys } from '../api/keys';
import { UPDATE_MAX_TRIES, UPDATE_POLL_MS, webhookUpdated } from '../billing-rules';

export interface WatchStart {
  readonly startedAt: number;
  /** The user record's lastWebhookUpdate when the watch started (null when unknown). */
  readonly baseline: Readonly<Record<string, unknown>> | null;
}

interface WatchData {
  readonly stamps: Readonly<Record<string, unknown>>;
  readonly baseline: Readonly<Record<string, unknown>>;
}

/** The plan and credits as the cached dashboard has them, to tell whether a reload changed them. */
function planShown(client: QueryClient, brand: string): string {
  return JSON.stringify(client.getQueryData<DashboardResponse>(dashboardKeys.forBrand(brand))?.credits ?? null);
}

/**
 * The update watch (SPEC section 4): GET users every 2 s, up to 15 tries, until a
 * lastWebhookUpdate timestamp changes or is within 3 s of now; then the dashboard is
 * reloaded (the plan and credits the webhook changed). A webhook that leaves the plan and
 * credits as they were when the watch started (a purchase's last one, processed late, while the
 * member was in the portal) does not end it: its stamps become the baseline and the watch goes
 * on, within the same 15 tries, for the change the member made. Renders nothing.
 */
export function UpdateWatch({ watch, onEnd }: { readonly watch: WatchStart; readonly onEnd: (updated: boolean) => void }) {
  const brand = useSelectedBrand();
  const client = useQueryClient();
  const key = useMemo(() => billingKeys.updateWatch(brand, watch.startedAt), [brand, watch.startedAt]);
  // What the page showed when the watch started: the change waited for is a change from this.
  const shownAtStart = useRef<string | null>(null);
  shownAtStart.current ??= planShown(client, brand);
  const query = useQuery({
    queryKey: key,
    // Without a known baseline, the first answer is the baseline (and freshness still counts).
    queryFn: async (): Promise<WatchData> => {
      const stamps = await fetchLastWebhookUpdate(brand);
      const previous = client.getQueryData<WatchData>(key);
      return { stamps, baseline: previous?.baseline ?? watch.baseline ?? stamps };
    },
    retry: false,
    gcTime: 0,
    refetchIntervalInBackground: true,
    refetchInterval: (current) => {
      const { data, dataUpdateCount, errorUpdateCount } = current.state;
      if (data && webhookUpdated(data.baseline, data.stamps)) return false;
      return dataUpdateCount + errorUpdateCount >= UPDATE_MAX_TRIES ? false : UPDATE_POLL_MS;
    },
  });
  const updated = query.data !== undefined && webhookUpdated(query.data.baseline, query.data.stamps);
  // The result has no counts; the query's own state (read on each render a fetch causes) has.
  const state = client.getQueryState(key);
  const spent = !query.isFetching && (state?.dataUpdateCount ?? 0) + (state?.errorUpdateCount ?? 0) >= UPDATE_MAX_TRIES;

  const seen = updated ? query.data.stamps : null;
  useEffect(() => {
    if (seen) {
      let live = true;
      void refreshDashboard(client).then(() => {
        if (!live) return;
        if (planShown(client, brand) !== shownAtStart.current) {
          onEnd(true);
        } else {
          client.setQueryData<WatchData>(key, { stamps: seen, baseline: seen });
        }
      });
      return () => {
        live = false;
      };
    }
    if (spent) onEnd(false);
    return undefined;
  }, [seen, spent, client, brand, key, onEnd]);

  return null;
}
