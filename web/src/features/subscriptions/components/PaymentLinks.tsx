import { Button } from '@/components/ui/Button';
import { showToast } from '@/lib/toast';
import type { CreditsInfo } from '@/lib/session-state';
import { useCopyPaymentLink, type PaymentLinkKind, type ProductsResponse } from '../api/billing';
import { LINK_COPIED, linkedOption, paymentLinkLabel } from '../billing-rules';

/**
 * Payment links (SPEC section 7: GET payment-link/{kind}): a link for someone else to pay
 * for this brand, copied to the clipboard with 'Payment link copied to clipboard'.
 */
export function PaymentLinks({
  kinds,
  products,
  credits,
}: {
  readonly kinds: readonly PaymentLinkKind[];
  /** The products answer and Credits info's products: where each link's product and price are read. */
  readonly products: ProductsResponse | undefined;
  readonly credits: CreditsInfo | null | undefined;
}) {
  const copy = useCopyPaymentLink();
  const busy = copy.isPending ? copy.variables : null;
  if (kinds.length === 0) return null;

  return (
    <section className="card billing__section" aria-labelledby="billing-links-title">
      <h2 id="billing-links-title" className="card__subtitle">
        Payment links
      </h2>
      <p className="muted small">Someone else paying for your brand? Copy a link for them: it pays for this brand.</p>
      <div className="billing__buttons">
        {kinds.map((kind) => (
          <Button
            key={kind}
            variant="secondary"
            busy={busy === kind}
            onClick={() => {
              copy.mutate(kind, {
                onSuccess: () => {
                  showToast({ tone: 'success', title: LINK_COPIED });
                },
              });
            }}
          >
            {paymentLinkLabel(kind, linkedOption(kind, products, credits))}
          </Button>
        ))}
      </div>
    </section>
  );
}
