import { useEffect } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import type { CreditsInfo } from '@/lib/session-state';
import { messageOf } from '@/lib/api';
import { showToast } from '@/lib/toast';
import { OPERATIONS, useCheckout, type PriceOption, type PricePeriod, type Product } from '../api/billing';
import { useProducts } from '../api/products';
import { isTrialOption, pricePerPeriod, visibleOptions } from '../billing-rules';

export interface ProductListProps {
  readonly credits: CreditsInfo | null | undefined;
  readonly featureOnly: boolean;
  /** Options giving fewer credits than this are hidden (the credits the pop-up payment needs). */
  readonly requiredCredits: number;
  /** Where checkout comes back to (POST products); null on the Billing page. */
  readonly redirect: string | null;
  /** Shown when no option is for this member. */
  readonly emptyText?: string;
}

function creditsLine(product: Product, period: PricePeriod, option: PriceOption): string | null {
  if (isTrialOption(option)) {
    const credits = option.trialCredits;
    return typeof credits === 'number' && credits > 0 ? `${credits} credits during the trial` : null;
  }
  const count = option.count;
  if (typeof count !== 'number' || count <= 0) return null;
  const recurring = period !== 'one_time' && product.type === 'main';
  return `${count} credits${recurring ? ' a month' : ''}`;
}

function BuyNow({
  product,
  option,
  redirect,
  label: text,
}: {
  readonly product: Product;
  readonly option: PriceOption;
  readonly redirect: string | null;
  readonly label: string;
}) {
  const checkout = useCheckout(redirect);
  // Once the checkout opens, the page is leaving for it: the button stays busy.
  const busy = checkout.isPending || checkout.isSuccess;
  const label = `${text}: ${product.name}${option.label ? `, ${option.label}` : ''}`;
  if (option.link) {
    // A full-page navigation to Stripe's hosted checkout.
    return (
      <a className="button button--primary button--block" href={option.link} aria-label={label}>
        {text}
      </a>
    );
  }
  return (
    <Button
      block
      busy={busy}
      aria-label={label}
      onClick={() => {
        checkout.mutate(option.id);
      }}
    >
      {text}
    </Button>
  );
}

/** The product cards with Buy now (SPEC "Subscriptions screen"), filtered by SPEC section 6. */
export function ProductList({ credits, featureOnly, requiredCredits, redirect, emptyText }: ProductListProps) {
  const products = useProducts(redirect);
  const failure = products.isError ? messageOf(products.error) : null;
  useEffect(() => {
    // SPEC section 8: a failed load is a toast titled by the operation.
    if (failure !== null) showToast({ tone: 'error', title: OPERATIONS.loadProducts, message: failure });
  }, [failure, products.errorUpdatedAt]);
  if (products.data === undefined && !products.isError) {
    return (
      <div aria-busy="true">
        <PageLoader inline />
      </div>
    );
  }
  if (products.data === undefined) {
    const message = messageOf(products.error);
    if (message === null) return null;
    return (
      <Alert title="We couldn't load the plans">
        <p>{message}</p>
        <Button variant="secondary" className="alert__action" onClick={() => void products.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const answer = products.data;
  const options = visibleOptions(answer, credits, { featureOnly, requiredCredits });
  if (options.length === 0) return emptyText ? <p className="muted">{emptyText}</p> : null;
  return (
    <div className="products">
      {answer.hasDiscount?.message && (
        <p className="notice products__discount" role="note">
          {answer.hasDiscount.message}
        </p>
      )}
      <ul className="product-cards" aria-label="Plans and credits">
        {options.map(({ product, period, option }) => {
          const credit = creditsLine(product, period, option);
          const trial = isTrialOption(option);
          const terms = trial ? (credits?.trial?.terms ?? []) : [];
          return (
            <li key={`${product.id}:${option.id}`} className={trial ? 'product-card product-card--trial' : 'product-card'}>
              <h3 className="product-card__name">{product.name}</h3>
              {option.label && <p className="product-card__label muted">{option.label}</p>}
              <p className="product-card__price">{trial ? 'Free' : pricePerPeriod(option, period, answer.currency)}</p>
              {credit && <p className="product-card__credits">{credit}</p>}
              {option.discountMessage && <p className="product-card__discount">{option.discountMessage}</p>}
              {terms.length > 0 ? (
                <ul className="product-card__terms small" aria-label="Free trial terms">
                  {terms.map((term) => (
                    <li key={term}>{term}</li>
                  ))}
                </ul>
              ) : (
                product.description && <p className="product-card__description muted small">{product.description}</p>
              )}
              <BuyNow product={product} option={option} redirect={redirect} label={trial ? 'Start free trial' : 'Buy now'} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
