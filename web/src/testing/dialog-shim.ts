/**
 * jsdom had <dialog> but not its methods; happy-dom has them, but not Esc. This shim gives
 * tests the parts of the platform the app relies on (HTML "dialog" and "close requests"):
 * - showModal() / show() set `open`; showModal() makes it the topmost modal dialog;
 * - close(returnValue?) clears `open`, sets returnValue and fires 'close';
 * - Esc not handled by the page fires a cancelable 'cancel' at the topmost modal
 *   dialog, which closes it unless a listener prevents that.
 * What the test DOM cannot show (the top layer, the inert page behind) is left to the
 * Playwright journeys in a real browser.
 */
type ShimmedDialog = HTMLDialogElement & { __shimmed?: boolean; __modals?: HTMLDialogElement[] };

/** The open modals, bottom first: kept on the prototype, which the patched methods share. */
function modalStack(): HTMLDialogElement[] {
  const proto = HTMLDialogElement.prototype as ShimmedDialog;
  proto.__modals ??= [];
  return proto.__modals;
}

export function installDialogShim(): void {
  const proto = HTMLDialogElement.prototype as ShimmedDialog;
  // happy-dom has showModal() and close() of its own, but no close request on Esc: the shim's
  // three methods replace them, so a modal's stack and its Esc are one implementation either way.
  // The prototype may outlive a test file's document and this module (a kept worker's happy-dom
  // serves each new window from the same classes), so the methods are patched once, the stack
  // lives on the prototype, and Esc is listened for on every document.
  if (!proto.__shimmed) {
    proto.__shimmed = true;
    proto.show = function show(this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };

    proto.showModal = function showModal(this: HTMLDialogElement) {
      if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError');
      if (!this.isConnected) throw new DOMException('The dialog is not in a document.', 'InvalidStateError');
      this.setAttribute('open', '');
      modalStack().push(this);
    };

    proto.close = function close(this: HTMLDialogElement, returnValue?: string) {
      if (!this.open) return;
      this.removeAttribute('open');
      const modals = modalStack();
      const index = modals.indexOf(this);
      if (index !== -1) modals.splice(index, 1);
      if (returnValue !== undefined) this.returnValue = returnValue;
      this.dispatchEvent(new Event('close'));
    };
  }

  const doc = document as Document & { __dialogShimmed?: boolean };
  if (doc.__dialogShimmed) return;
  doc.__dialogShimmed = true;
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const modals = modalStack();
    const top = modals[modals.length - 1];
    if (!top) return;
    const cancel = new Event('cancel', { cancelable: true });
    top.dispatchEvent(cancel);
    if (!cancel.defaultPrevented) top.close();
  });
}

/** Forgets dialogs left open by a test that unmounted without closing them. */
export function resetDialogShim(): void {
  modalStack().length = 0;
}
