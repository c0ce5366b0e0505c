import { useState } from 'react';
import { Button } from '@/components/ui/Button';
import { confirm } from '@/components/ui/confirm';
import { useBlockBrand } from '../api/trust';
import { ReportDialog } from './ReportDialog';

/**
 * "Block" and "Report this brand" for another brand: on its page, a request, a pitch and a
 * match card. Blocking asks first; it is silent for the other brand.
 */
export function TrustActions({ brandId, brandName, onBlocked, compact = false }: {
  readonly brandId: number;
  readonly brandName: string;
  /** Where to go once blocked (the brand is no longer shown). */
  readonly onBlocked?: () => void;
  /** Small link-like buttons (cards). */
  readonly compact?: boolean;
}) {
  const block = useBlockBrand();
  const [reporting, setReporting] = useState(false);

  const askToBlock = async () => {
    try {
      await confirm({
        title: `Block ${brandName}?`,
        message:
          'You and this brand will no longer see each other on Tandem: not in Matches, requests, connections or the Pitch Area, and neither can send the other a request or a pitch. A pending request between you is cancelled and its credit returned to its sender. They are not told. You can unblock them from Account, Blocked brands.',
        confirmLabel: 'Block',
        danger: true,
      });
    } catch {
      return;
    }
    block.mutate({ brandId, blocked: true, name: brandName }, { onSuccess: () => onBlocked?.() });
  };

  const variant = compact ? 'ghost' : 'secondary';
  return (
    <div className={compact ? 'trust-actions trust-actions--compact' : 'trust-actions'}>
      <Button variant={variant} onClick={() => { setReporting(true); }}>
        Report this brand<span className="visually-hidden">: {brandName}</span>
      </Button>
      <Button variant={variant} busy={block.isPending} onClick={() => void askToBlock()}>
        Block<span className="visually-hidden"> {brandName}</span>
      </Button>
      {reporting && <ReportDialog brandId={brandId} brandName={brandName} onClose={() => { setReporting(false); }} />}
    </div>
  );
}
