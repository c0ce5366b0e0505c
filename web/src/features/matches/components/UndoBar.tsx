import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/Button';

export interface UndoBarProps {
  /** The dismissed match: the bar takes the focus for each new one. */
  readonly matchId: number;
  /** The dismissed brand's name. */
  readonly name: string;
  readonly busy: boolean;
  readonly onUndo: () => void;
  readonly onHide: () => void;
}

/**
 * The bar offering a dismissed match back. The dismissed card is gone, so its Undo takes the
 * focus when the bar appears, and again for each later dismissal.
 */
export function UndoBar({ matchId, name, busy, onUndo, onHide }: UndoBarProps) {
  const undoRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    undoRef.current?.focus();
  }, [matchId]);

  return (
    <div className="undo-bar" role="status">
      <span>
        You dismissed <strong>{name}</strong>. It won't be suggested again.
      </span>
      <div className="undo-bar__actions">
        <Button ref={undoRef} variant="secondary" busy={busy} onClick={onUndo}>
          Undo
        </Button>
        <button type="button" className="link-button" onClick={onHide}>
          Hide<span className="visually-hidden"> this message</span>
        </button>
      </div>
    </div>
  );
}
