import { useDashboard } from '@/lib/session-state';
import { openSubscriptionOverlay, useRouteSubscriptionType } from '@/features/subscriptions';

/**
 * Says why a brand's name is masked: without a subscription, names are a
 * subscription benefit; with one, the brand chose to hide its name; and when
 * names are hidden platform-wide, they show once the brands connect. Subscribing opens
 * the subscription overlay's plans, and checkout comes back to this page.
 */
export function MaskedNameHint({ showingBrandNames }: { readonly showingBrandNames: boolean }) {
  // Names hidden platform-wide: a subscription would not show them either.
  const global = useDashboard().data?.showingBrandNamesGlobal;
  const type = useRouteSubscriptionType();
  if (global === false) {
    return <p className="masked-hint">Brand names are shown once you connect.</p>;
  }
  if (showingBrandNames) {
    return <p className="masked-hint">This brand keeps its name private until you connect.</p>;
  }
  return (
    <p className="masked-hint">
      <button
        type="button"
        className="link-button"
        onClick={() => {
          openSubscriptionOverlay({ reason: 'no_subscription', type: type ?? 'match' });
        }}
      >
        Subscribe to see brand names
      </button>
    </p>
  );
}
