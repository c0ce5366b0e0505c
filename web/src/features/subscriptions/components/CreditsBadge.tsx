import { lazy, Suspense, useState } from 'react';
import type { CreditsInfo } from '@/lib/session-state';
import { creditsText } from '../credits-text';
import { useRouteSubscriptionType } from '../use-subscription-type';

// The popup and the credit rules it shows load when the member opens it (BENCH web_initial_js_gz_kb).
const CreditsPopup = lazy(() => import('./CreditsPopup').then((m) => ({ default: m.CreditsPopup })));

/**
 * The credits badge of the top bar: 'available/total', hidden when the total is 0.
 * It opens 'How credits work', with the member's numbers and a way to more credits.
 */
export function CreditsBadge({ credits }: { readonly credits: CreditsInfo | null | undefined }) {
  const [open, setOpen] = useState(false);
  const type = useRouteSubscriptionType();
  const text = creditsText(credits);
  if (text === null) return null;
  return (
    <>
      <button
        type="button"
        className="credits-badge"
        data-tour="products"
        aria-haspopup="dialog"
        title="How credits work"
        onClick={() => {
          setOpen(true);
        }}
      >
        <span className="credits-badge__value">{text}</span>
        <span className="credits-badge__label"> credits</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <CreditsPopup
            credits={credits}
            type={type}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
