import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';

export interface BrandVisibilityPopupProps {
  readonly settingsPath: string;
  readonly onDone: () => Promise<void>;
}

/** Announces that brand names are visible in Matches and where to hide them. */
export function BrandVisibilityPopup({ settingsPath, onDone }: BrandVisibilityPopupProps) {
  const [busy, setBusy] = useState(false);
  const done = async () => {
    setBusy(true);
    try {
      await onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title="Brand names are now visible in Matches"
      onClose={() => void done()}
      footer={
        <>
          <Link to={settingsPath} className="button button--secondary" onClick={() => void done()}>
            Brand settings
          </Link>
          <Button busy={busy} onClick={() => void done()}>
            Got it
          </Button>
        </>
      }
    >
      <p className="modal__text">
        Brands can now see each other's names in Matches, so you know who you are connecting with. If you prefer,
        you can hide your brand name in your brand settings.
      </p>
    </Modal>
  );
}
