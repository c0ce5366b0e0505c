import { useCallback, useEffect, useState } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { confirm } from '@/components/ui/confirm';
import { Modal } from '@/components/ui/Modal';
import { PageLoader } from '@/components/ui/PageLoader';
import { LoadFailed } from '@/components/ui/ListStates';
import { useDashboard, useRefreshDashboard, type CreditsInfo } from '@/lib/session-state';
import { ApiError } from '@/lib/api';
import { useIsFeatureOnly, useLoginCheck } from '@/lib/login-check';
import { useSelectedBrand } from '@/lib/session';
import { storage } from '@/lib/storage';
import { PORTAL_KEY, portalLeft, usePortal, useYearlyUpgrade } from '../api/billing';
import { useProducts } from '../api/products';
import {
  mainPrices,
  paymentLinkKinds,
  showAddons,
  showFeatureProducts,
  showProducts,
  showRecurringAddons,
  YEARLY_UPGRADE_FAILED,
  YEARLY_UPGRADE_SUCCESS,
  yearlyUpgradeMessage,
} from '../billing-rules';
import { creditsText, planDescription, planLines } from '../credits';
import { AddOnsList } from './AddOnsList';
import { PaymentLinks } from './PaymentLinks';
import { ProductList } from './ProductList';
import { UpdateWatch, type WatchStart } from './UpdateWatch';

const PORTAL_RETURN_MS = 60 * 60 * 1000;

/** The feature-only account's feature, in one line (credits.featureDone; paying is the server's featureProductsAllowed). */
function featureLine(credits: CreditsInfo | null | undefined): string {
  const feature = credits?.featureDone;
  if (!feature?._id) return 'Create a feature in the Pitch Area to see its payment options.';
  if (feature.paid && feature.current) return 'Your feature is live in the Pitch Area.';
  if (feature.paid && feature.approved === false) return 'Your feature is paid and waiting for approval, normally within 24 hours.';
  if (feature.paid) return 'Your feature is paid.';
  if (credits?.featureProductsAllowed === true) return 'Your feature is ready: pay for it below to go live.';
  return 'Your feature has ended. You can create a new one in the Pitch Area.';
}

/** The plan in words: the server's one sentence, then its renewal or end, and what the account is waiting for. */
function PlanDetails({ credits }: { readonly credits: CreditsInfo | null | undefined }) {
  const description = planDescription(credits);
  const state = credits?.plan?.state;
  return (
    <>
      {description && <p className="billing__lead">{description}</p>}
      {planLines(credits).map((line) => (
        <p key={line} className="muted">
          {line}
        </p>
      ))}
      {credits?.paymentFailed === true && (
        <Alert title="Your last payment failed">
          Update your card in Manage subscription and we'll try the payment again.
        </Alert>
      )}
      {state === 'pending_approval' && (
        <Alert tone="info" title="Waiting for approval">
          Thanks for subscribing. A team member approves new subscriptions within 24 hours and we'll email you. Requests you
          send meanwhile stay pending and go out once it is approved.
        </Alert>
      )}
      {credits?.featureOnly === true && (
        <Alert tone="info" title="Feature-only account">
          {featureLine(credits)}
        </Alert>
      )}
      {/* Out of credits on a plan: the server's words. Without a right to send, the lead sentence and the plans below say it. */}
      {credits?.canSend === true && credits.notAllowedMessage && <p className="notice">{credits.notAllowedMessage}</p>}
    </>
  );
}

type UpgradeResult = { readonly ok: true; readonly message: string } | { readonly ok: false; readonly message: string };

/** /account/subscriptions/: the member's plan, credits, add-ons and the ways to pay (SPEC "Subscriptions screen"). */
export function SubscriptionsPage() {
  const dashboard = useDashboard();
  const refresh = useRefreshDashboard();
  const check = useLoginCheck();
  const featureOnly = useIsFeatureOnly();
  const products = useProducts(null);
  const brand = useSelectedBrand();
  const portal = usePortal(brand);
  // Once the portal's address is in, the page is leaving for it: the button stays busy.
  const portalBusy = portal.isPending || portal.isSuccess;
  const yearly = useYearlyUpgrade(brand);
  const [upgrade, setUpgrade] = useState<UpgradeResult | null>(null);
  const baseline = check.data?.lastWebhookUpdate ?? null;
  // Back from the billing portal: a change made there arrives by webhook, so the update watch
  // runs, against the stamps from before the member left.
  const [watch, setWatch] = useState<WatchStart | null>(() => {
    const left = portalLeft();
    return left && Date.now() - left.openedAt < PORTAL_RETURN_MS ? { startedAt: Date.now(), baseline: left.baseline ?? baseline } : null;
  });
  const credits = dashboard.data?.credits;

  useEffect(() => {
    storage.remove(PORTAL_KEY);
  }, []);

  const startWatch = useCallback((stamps: Readonly<Record<string, unknown>> | null) => {
    setWatch({ startedAt: Date.now(), baseline: stamps });
  }, []);
  const endWatch = useCallback(() => {
    setWatch(null);
  }, []);

  if (dashboard.data === undefined) {
    if (dashboard.isError) {
      return <LoadFailed title="We couldn't load your plan" error={dashboard.error} retry={() => void dashboard.refetch()} />;
    }
    return <PageLoader />;
  }

  const openPortal = () => {
    portal.mutate(baseline);
  };

  const prices = mainPrices(products.data, credits?.mainSubscripionProductId, credits);
  const startUpgrade = async () => {
    if (!prices) return;
    try {
      await confirm({
        title: 'Upgrade to yearly',
        message: yearlyUpgradeMessage(prices.monthly, prices.yearly, products.data?.currency),
        confirmLabel: 'Upgrade to yearly',
      });
    } catch {
      return; // 'User cancelled'
    }
    yearly.mutate(baseline, {
      onSuccess: (answer) => {
        setUpgrade({ ok: true, message: YEARLY_UPGRADE_SUCCESS });
        void refresh();
        startWatch(answer.baseline);
      },
      // A refused payment is told here; other refusals are the write's error toast.
      onError: (error) => {
        if (error instanceof ApiError && error.status === 402) setUpgrade({ ok: false, message: YEARLY_UPGRADE_FAILED });
      },
    });
  };

  const badge = creditsText(credits);
  const productsShown = showProducts(credits) && !featureOnly;
  // Only what the server says this member may buy: no section at all when that is nothing.
  const anythingToBuy =
    productsShown || (!featureOnly && (showAddons(credits) || showRecurringAddons(credits))) || showFeatureProducts(credits);
  const linkKinds = paymentLinkKinds(credits);

  return (
    <div className="page billing">
      <header className="page__header billing__header">
        <h1>Billing</h1>
        {badge && (
          <span className="credits-pill" role="status" aria-label={`${badge} credits`}>
            {badge}
          </span>
        )}
      </header>

      <section className="card billing__section" aria-labelledby="billing-plan-title">
        <h2 id="billing-plan-title" className="card__subtitle">
          Your plan
        </h2>
        <PlanDetails credits={credits} />
        <div className="billing__buttons">
          {credits?.hasBillingAccount === true && (
            <Button variant="secondary" busy={portalBusy} onClick={openPortal}>
              {credits.canManageSubscription === true ? 'Manage subscription' : 'Payments and invoices'}
            </Button>
          )}
          {credits?.canUpgradeToYearly === true && prices && (
            <Button busy={yearly.isPending} onClick={() => void startUpgrade()}>
              Upgrade to yearly
            </Button>
          )}
        </div>
      </section>

      <AddOnsList addOns={credits?.addOns} />

      {anythingToBuy && (
        <section className="card billing__section" aria-labelledby="billing-products-title">
          <h2 id="billing-products-title" className="card__subtitle">
            {featureOnly ? 'Pay for your feature' : productsShown ? 'Plans and credits' : 'Buy more'}
          </h2>
          <ProductList credits={credits} featureOnly={featureOnly} requiredCredits={0} redirect={null} />
        </section>
      )}

      <PaymentLinks kinds={linkKinds} products={products.data} credits={credits} />

      {watch && <UpdateWatch watch={watch} onEnd={endWatch} />}

      {upgrade && (
        <Modal
          open
          width={500}
          title={upgrade.ok ? 'Yearly upgrade' : 'Yearly upgrade failed'}
          onClose={() => {
            setUpgrade(null);
          }}
          footer={
            upgrade.ok ? (
              <Button
                onClick={() => {
                  setUpgrade(null);
                }}
              >
                Close
              </Button>
            ) : (
              <Button busy={portalBusy} onClick={openPortal}>
                Access invoices
              </Button>
            )
          }
        >
          <p>{upgrade.message}</p>
        </Modal>
      )}
    </div>
  );
}
