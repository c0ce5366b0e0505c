import { Link, useLocation } from 'react-router';
import { Modal } from '@/components/ui/Modal';
import { useDashboard } from '@/lib/session-state';
import { BILLING_PATH } from '@/features/navigation';
import { useIsFeatureOnly } from '@/lib/login-check';
import { requiredCreditsFor, showProducts } from '../billing-rules';
import { OVERLAY_TITLES, overlayTitle, PLAN_BENEFITS, planDescription } from '../credits';
import { closeSubscriptionOverlay, type OverlayRequest } from '../overlay-store';
import { CreditsSummary } from './CreditsSummary';
import { HowCreditsWork } from './HowCreditsWork';
import { ProductList } from './ProductList';
import { checkoutRedirect } from '../payment-paths';

const UNTITLED_LABEL = 'Your plan and credits';

const plain = (text: string) => text.trim().replace(/[.!]+$/, '').toLowerCase();

function sameText(a: string | null | undefined, b: string | null): boolean {
  return !a || (b !== null && plain(a) === plain(b));
}

/**
 * The subscription overlay shown in the request, pitch and matches flows (SPEC
 * "Subscriptions screen"): the credits, the plan, its benefits and the product cards.
 * Buy now goes to checkout, which comes back to this page's payment-processing address
 * (POST products {redirect}).
 */
export function SubscriptionOverlay({ request }: { readonly request: OverlayRequest }) {
  const credits = useDashboard().data?.credits;
  const location = useLocation();
  const featureOnly = useIsFeatureOnly();
  const title = overlayTitle(request.reason, request.type, credits);
  // The server's note on what the account may do (e.g. pending approval), unless the title already says it.
  const notice =
    sameText(credits?.notAllowedMessage, title) || (title === OVERLAY_TITLES.trialOffered && sameText(credits?.notAllowedMessage, OVERLAY_TITLES.noSubscription))
      ? null
      : credits?.notAllowedMessage;
  const plansOnOffer = showProducts(credits);
  const description = planDescription(credits);
  return (
    <Modal
      open
      width={1000}
      title={title ?? UNTITLED_LABEL}
      onClose={closeSubscriptionOverlay}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={closeSubscriptionOverlay}>
            Not now
          </button>
          <Link to={BILLING_PATH} className="button button--primary" onClick={closeSubscriptionOverlay}>
            {plansOnOffer ? 'See plans in Billing' : 'Get more credits in Billing'}
          </Link>
        </>
      }
    >
      <div className={`subscription-overlay${title === null ? ' subscription-overlay--untitled' : ''}`}>
        {request.reason === 'out_of_credits' && (
          <p className="subscription-overlay__lead">
            You've used all your credits for now. Buy more, or wait for your next monthly credits.
          </p>
        )}
        {request.reason === 'no_subscription' && (
          <p className="subscription-overlay__lead">Connection requests, pitches and features are part of a Tandem subscription.</p>
        )}
        <CreditsSummary credits={credits} />
        <section aria-labelledby="overlay-products-title" className="subscription-overlay__products">
          <h3 id="overlay-products-title" className="card__subtitle">
            {plansOnOffer ? 'Choose a plan' : 'Buy more'}
          </h3>
          <ProductList
            credits={credits}
            featureOnly={featureOnly}
            requiredCredits={request.requiredCredits ?? requiredCreditsFor(request.type)}
            redirect={checkoutRedirect(request.type, location.pathname) ?? '/account/subscriptions'}
            emptyText="There's nothing to buy for your account right now: see Billing for your plan."
          />
        </section>
        <div className="subscription-overlay__columns">
          <section aria-labelledby="plan-title" className="subscription-overlay__plan">
            <h3 id="plan-title" className="card__subtitle">
              Your plan
            </h3>
            {description && <p>{description}</p>}
            {notice && <p className="notice">{notice}</p>}
            <h3 className="card__subtitle subscription-overlay__benefits-title">What a subscription includes</h3>
            <ul className="benefits">
              {PLAN_BENEFITS.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="credits-rules-title" className="subscription-overlay__rules">
            <h3 id="credits-rules-title" className="card__subtitle">
              How credits work
            </h3>
            <HowCreditsWork headingLevel="h4" />
          </section>
        </div>
      </div>
    </Modal>
  );
}
