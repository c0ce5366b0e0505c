/**
 * Open modals, innermost last: only the top one answers Esc and keeps focus,
 * so a confirm dialog over a popup closes on its own.
 */
const stack: symbol[] = [];

export function pushModal(id: symbol): void {
  stack.push(id);
  document.body.classList.add('has-modal');
}

export function removeModal(id: symbol): void {
  const index = stack.indexOf(id);
  if (index !== -1) stack.splice(index, 1);
  if (stack.length === 0) document.body.classList.remove('has-modal');
}

export function isTopModal(id: symbol): boolean {
  return stack[stack.length - 1] === id;
}
