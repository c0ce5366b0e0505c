import type { CreditsInfo } from '@/lib/session-state';
import { formatOrdinalDate, parseDate } from '@/lib/format';
import { creditsText, expiringLine, nextCreditsLine } from '../credits';

/**
 * Credits left, when the soonest of them expire (SPEC's `next`: credits held now, never new
 * ones), the plan's next month of credits (credits.plan.nextCredits) and any add-ons; nothing
 * at all when the total is 0.
 */
export function CreditsSummary({ credits }: { readonly credits: CreditsInfo | null | undefined }) {
  const text = creditsText(credits);
  if (text === null || !credits) return null;
  const available = Math.max(0, credits.available ?? 0);
  const expiring = expiringLine(credits);
  const arriving = nextCreditsLine(credits);
  const addOns = (credits.addOns ?? []).filter((addOn) => (addOn.available ?? 0) > 0);
  return (
    <div className="credits-summary">
      <span className="credits-pill" aria-hidden="true">
        {text}
      </span>
      <div>
        <p className="credits-summary__line">
          <strong>
            {available} of {credits.total} credits left
          </strong>
        </p>
        {expiring && <p className="muted small">{expiring}</p>}
        {arriving && <p className="muted small">{arriving}</p>}
        {addOns.map((addOn, index) => {
          const to = parseDate(addOn.valid?.to);
          return (
            <p key={`${addOn.productName ?? 'add-on'}-${index}`} className="muted small">
              {addOn.productName ?? 'Extra credits'}: {addOn.available} of {addOn.total} left
              {to ? `, valid until ${formatOrdinalDate(to)}` : ''}.
            </p>
          );
        })}
      </div>
    </div>
  );
}
