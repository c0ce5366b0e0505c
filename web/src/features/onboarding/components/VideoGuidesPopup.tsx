import { Modal } from '@/components/ui/Modal';

/** Video guides open in a popup; the guide list and player arrive with a later issue. */
export function VideoGuidesPopup({ onClose }: { readonly onClose: () => void }) {
  return (
    <Modal open title="Video Guides" width={1000} onClose={onClose}>
      <div className="coming-soon__card coming-soon__card--flat">
        <span className="coming-soon__badge">Coming soon</span>
        <p className="coming-soon__lead">
          Video Guides is coming soon: short walk-throughs of matches, requests and the Pitch Area.
        </p>
      </div>
    </Modal>
  );
}
