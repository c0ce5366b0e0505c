/**
 * jsdom has <dialog> but not its methods. This shim gives tests the parts of the
 * platform the app relies on (HTML "dialog" and "close requests"):
 * - showModal() / show() set `open`; showModal() makes it the topmost modal dialog;
 * - close(returnValue?) clears `open`, sets returnValue and fires 'close';
 * - Esc not handled by the page fires a cancelable 'cancel' at the topmost modal
 *   dialog, which closes it unless a listener prevents that.
 * What jsdom cannot show (the top layer, the inert page behind) is left to the
 * Playwright journeys in a real browser.
 */
const modals: HTMLDialogElement[] = [];

export function installDialogShim(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { __shimmed?: boolean };
  if (proto.__shimmed || typeof proto.showModal === 'function') return;
  proto.__shimmed = true;

  proto.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };

  proto.showModal = function showModal(this: HTMLDialogElement) {
    if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError');
    if (!this.isConnected) throw new DOMException('The dialog is not in a document.', 'InvalidStateError');
    this.setAttribute('open', '');
    modals.push(this);
  };

  proto.close = function close(this: HTMLDialogElement, returnValue?: string) {
    if (!this.open) return;
    this.removeAttribute('open');
    const index = modals.indexOf(this);
    if (index !== -1) modals.splice(index, 1);
    if (returnValue !== undefined) this.returnValue = returnValue;
    this.dispatchEvent(new Event('close'));
  };

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const top = modals[modals.length - 1];
    if (!top) return;
    const cancel = new Event('cancel', { cancelable: true });
    top.dispatchEvent(cancel);
    if (!cancel.defaultPrevented) top.close();
  });
}

/** Forgets dialogs left open by a test that unmounted without closing them. */
export function resetDialogShim(): void {
  modals.length = 0;
}
