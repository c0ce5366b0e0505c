import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refreshDashboard } from '@/lib/session-state';
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

/**
 * The update watch (SPEC section 4): GET users every 2 s, up to 15 tries, until a
 * lastWebhookUpdate timestamp changes or is within 3 s of now; then the dashboard is
 * reloaded (the plan and credits the webhook changed). Renders nothing.
 */
export function UpdateWatch({ watch, onEnd }: { readonly watch: WatchStart; readonly onEnd: (updated: boolean) => void }) {
  const brand = useSelectedBrand();
  const client = useQueryClient();
  const key = billingKeys.updateWatch(brand, watch.startedAt);
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

  useEffect(() => {
    if (updated) {
      void refreshDashboard(client);
      onEnd(true);
    } else if (spent) {
      onEnd(false);
    }
  }, [updated, spent, client, onEnd]);

  return null;
}
