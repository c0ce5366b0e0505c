import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Button } from '@/components/ui/Button';
import { stepAsShown, tourStepsFor, type TourStep } from '../tour-steps';

const GAP = 12;
const MARGIN = 8;
const HIGHLIGHT = 'tips-tour-target';

/** The step's element when it is on screen (the sidebar in a closed drawer is not). */
function visibleTarget(step: TourStep): HTMLElement | null {
  const element = document.querySelector<HTMLElement>(step.target);
  if (!element) return null;
  const box = element.getBoundingClientRect();
  const style = window.getComputedStyle(element);
  const onScreen = box.right > 0 && box.bottom > 0 && box.left < window.innerWidth && box.top < window.innerHeight;
  return box.width > 0 && box.height > 0 && onScreen && style.visibility !== 'hidden' ? element : null;
}

/** Beside the element, kept inside the window; null: centred. */
function placeNextTo(element: HTMLElement, step: TourStep, card: HTMLElement): CSSProperties {
  const box = element.getBoundingClientRect();
  const width = card.offsetWidth;
  const height = card.offsetHeight;
  let left: number;
  let top: number;
  if (step.placement === 'bottom') {
    left = box.left + box.width / 2 - width / 2;
    top = box.bottom + GAP;
  } else if (step.placement === 'left') {
    left = box.left - GAP - width;
    top = box.top;
  } else {
    left = box.right + GAP;
    top = box.top + Math.min(box.height / 2, 120) - 40;
  }
  left = Math.max(MARGIN, Math.min(left, window.innerWidth - width - MARGIN));
  top = Math.max(MARGIN, Math.min(top, window.innerHeight - height - MARGIN));
  return { left, top };
}

export interface TipsTourProps {
  /** Finished, skipped or closed: the tour is done with for good. */
  readonly onDone: () => void;
}

/**
 * The tips tour (SPEC sections 2 and 6): one tip at a time beside the element it explains,
 * the page still usable around it. The mobile-menu step is in the tour only at 767 px or less.
 * Esc, the X, "Skip tour" and "Finish" all end it.
 */
export function TipsTour({ onDone }: TipsTourProps) {
  const [width, setWidth] = useState(() => window.innerWidth);
  const steps = tourStepsFor(width);
  const [index, setIndex] = useState(0);
  const listed = steps[Math.min(index, steps.length - 1)];
  // The credits tip of a member without credits (no badge) points at the account menu instead.
  // Looked up when the tip changes (the badge is there or not by then), so its identity is stable.
  const step = useMemo(() => (listed ? stepAsShown(listed) : undefined), [listed]);
  const cardRef = useRef<HTMLDivElement>(null);
  const [style, setStyle] = useState<CSSProperties | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const onDoneRef = useRef(onDone);

  useEffect(() => {
    onDoneRef.current = onDone;
  }, [onDone]);

  useEffect(() => {
    const onResize = () => {
      setWidth(window.innerWidth);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDoneRef.current();
    };
    window.addEventListener('resize', onResize);
    document.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('resize', onResize);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  useLayoutEffect(() => {
    if (!step || !cardRef.current) return undefined;
    const target = visibleTarget(step);
    setStyle(target ? placeNextTo(target, step, cardRef.current) : null);
    target?.classList.add(HIGHLIGHT);
    return () => target?.classList.remove(HIGHLIGHT);
  }, [step, width]);

  useEffect(() => {
    cardRef.current?.focus();
  }, [index]);

  if (!step) return null;
  const last = index >= steps.length - 1;
  return (
    <div
      ref={cardRef}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      tabIndex={-1}
      className={style ? 'tips-tour' : 'tips-tour tips-tour--centred'}
      style={style ?? undefined}
      data-step={step.id}
    >
      <p className="tips-tour__progress">
        Tip {Math.min(index, steps.length - 1) + 1} of {steps.length}
      </p>
      <h2 id={titleId} className="tips-tour__title">
        {step.title}
      </h2>
      <p id={bodyId}>{step.body}</p>
      <button type="button" className="icon-button tips-tour__close" aria-label="Close tips" onClick={onDone}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div className="tips-tour__actions">
        {!last && (
          <Button variant="ghost" onClick={onDone}>
            Skip tour
          </Button>
        )}
        {index > 0 && (
          <Button
            variant="secondary"
            onClick={() => {
              setIndex((i) => i - 1);
            }}
          >
            Back
          </Button>
        )}
        {last ? (
          <Button onClick={onDone}>Finish</Button>
        ) : (
          <Button
            onClick={() => {
              setIndex((i) => i + 1);
            }}
          >
            Next
          </Button>
        )}
      </div>
    </div>
  );
}
