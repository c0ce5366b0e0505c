const RESIZE_LOOP = 'ResizeObserver loop';

/**
 * Browsers report "ResizeObserver loop completed with undelivered notifications"
 * as an error although nothing is wrong; SPEC section 8 silences it.
 */
export function silenceResizeLoopErrors(target: Window = window): void {
  target.addEventListener('error', (event) => {
    if (typeof event.message === 'string' && event.message.includes(RESIZE_LOOP)) {
      event.stopImmediatePropagation();
    }
  });
}
