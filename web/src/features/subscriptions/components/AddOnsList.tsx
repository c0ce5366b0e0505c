import type { CreditAddOn } from '@/lib/session-state';
import { formatOrdinalDate, parseDate } from '@/lib/format';
import { addOnTypeLabel } from '../billing-rules';

/** The member's bought, recurring and gifted credit packs (SPEC section 3 "Add-on"). */
export function AddOnsList({ addOns }: { readonly addOns: readonly CreditAddOn[] | undefined }) {
  if (!addOns || addOns.length === 0) return null;
  return (
    <section className="card billing__section" aria-labelledby="billing-addons-title">
      <h2 id="billing-addons-title" className="card__subtitle">
        Your add-ons
      </h2>
      <ul className="addons">
        {addOns.map((addOn, index) => {
          const to = parseDate(addOn.valid?.to);
          const ends = parseDate(addOn.cancelled?.cancels_at);
          const cancelled = parseDate(addOn.cancelled?.cancelled_at);
          const cancelText = ends
            ? ` Cancelled: it ends on ${formatOrdinalDate(ends)}.`
            : cancelled
              ? ` Cancelled on ${formatOrdinalDate(cancelled)}.`
              : '';
          return (
            <li key={`${addOn.productName ?? 'add-on'}-${index}`} className="addons__item">
              <strong>{addOn.productName ?? 'Extra credits'}</strong>{' '}
              <span className="muted">({addOnTypeLabel(addOn.type)})</span>
              <p className="small">
                {addOn.available ?? 0}/{addOn.total ?? 0} credits left
                {to ? `, valid until ${formatOrdinalDate(to)}` : ''}.
                {cancelText}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
