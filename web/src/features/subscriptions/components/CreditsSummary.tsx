import type { CreditsInfo } from '@/features/dashboard';
import { formatOrdinalDate, parseDate } from '@/lib/format';
import { creditsText } from '../credits';

/** Credits left, the next top-up and any add-ons; nothing at all when the total is 0. */
export function CreditsSummary({ credits }: { readonly credits: CreditsInfo | null | undefined }) {
  const text = creditsText(credits);
  if (text === null || !credits) return null;
  const available = Math.max(0, credits.available ?? 0);
  const nextDate = parseDate(credits.next?.to);
  const nextCredits = credits.next?.credits;
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
        {nextDate && typeof nextCredits === 'number' && nextCredits > 0 && (
          <p className="muted small">
            {nextCredits} new credits on {formatOrdinalDate(nextDate)}.
          </p>
        )}
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
