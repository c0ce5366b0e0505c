import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import type { CreditsInfo } from '@/features/dashboard';
import { BILLING_PATH } from '@/features/navigation';
import { creditsText } from '../credits';
import { openSubscriptionOverlay } from '../overlay-store';
import { useRouteSubscriptionType } from '../use-subscription-type';
import { CreditsSummary } from './CreditsSummary';
import { HowCreditsWork } from './HowCreditsWork';

/**
 * The credits badge of the top bar: 'available/total', hidden when the total is 0.
 * It opens 'How credits work', with the member's numbers and a way to more credits.
 */
export function CreditsBadge({ credits }: { readonly credits: CreditsInfo | null | undefined }) {
  const [open, setOpen] = useState(false);
  const type = useRouteSubscriptionType();
  const text = creditsText(credits);
  if (text === null) return null;
  const close = () => {
    setOpen(false);
  };
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
      <Modal
        open={open}
        title="How credits work"
        width={800}
        onClose={close}
        footer={
          <>
            <Link to={BILLING_PATH} className="button button--secondary" onClick={close}>
              Billing
            </Link>
            <Button
              onClick={() => {
                close();
                openSubscriptionOverlay({ type });
              }}
            >
              Get more credits
            </Button>
          </>
        }
      >
        <div className="credits-popup">
          <CreditsSummary credits={credits} />
          <HowCreditsWork />
        </div>
      </Modal>
    </>
  );
}
