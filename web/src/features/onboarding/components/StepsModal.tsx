import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { Modal, type ModalWidth } from '@/components/ui/Modal';

export interface Step {
  readonly heading: string;
  readonly body: ReactNode;
}

export interface StepsModalProps {
  readonly title: string;
  readonly steps: readonly Step[];
  /** "Page" or "Step", for the "Page 1 of 2" line. */
  readonly unit: string;
  readonly onClose: () => void;
  readonly onFinish: () => void;
  readonly finishing?: boolean;
  readonly width?: ModalWidth;
  readonly closeOnOverlayClick?: boolean;
}

/** A popup that walks through pages with Previous, Next and Finish. */
export function StepsModal({
  title,
  steps,
  unit,
  onClose,
  onFinish,
  finishing = false,
  width = 800,
  closeOnOverlayClick = true,
}: StepsModalProps) {
  const [index, setIndex] = useState(0);
  const step = steps[index];
  if (!step) return null;
  const last = index === steps.length - 1;

  return (
    <Modal
      open
      title={title}
      width={width}
      onClose={onClose}
      closeOnOverlayClick={closeOnOverlayClick}
      footer={
        <>
          <p className="steps__position">
            {unit} {index + 1} of {steps.length}
          </p>
          {index > 0 && (
            <Button
              variant="secondary"
              onClick={() => {
                setIndex(index - 1);
              }}
            >
              Previous
            </Button>
          )}
          {last ? (
            <Button busy={finishing} onClick={onFinish}>
              Finish
            </Button>
          ) : (
            <Button
              onClick={() => {
                setIndex(index + 1);
              }}
            >
              Next
            </Button>
          )}
        </>
      }
    >
      <section className="steps__page" aria-live="polite">
        <h3 className="steps__heading">{step.heading}</h3>
        {step.body}
      </section>
    </Modal>
  );
}
