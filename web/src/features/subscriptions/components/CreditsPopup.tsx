import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import type { CreditsInfo } from '@/lib/session-state';
import { BILLING_PATH } from '@/features/navigation';
import { openSubscriptionOverlay } from '../overlay-store';
import type { SubscriptionType } from '../credits';
import { CreditsSummary } from './CreditsSummary';
import { HowCreditsWork } from './HowCreditsWork';

export interface CreditsPopupProps {
  readonly credits: CreditsInfo | null | undefined;
  /** The route's subscription type, for the overlay 'Get more credits' opens. */
  readonly type: SubscriptionType | null;
  readonly onClose: () => void;
}

/** 'How credits work': the member's numbers, the credit rules, and ways to more credits. */
export function CreditsPopup({ credits, type, onClose }: CreditsPopupProps) {
  return (
    <Modal
      open
      title="How credits work"
      width={800}
      onClose={onClose}
      footer={
        <>
          <Link to={BILLING_PATH} className="button button--secondary" onClick={onClose}>
            Billing
          </Link>
          <Button
            onClick={() => {
              onClose();
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
  );
}
