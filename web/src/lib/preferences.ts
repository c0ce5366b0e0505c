import { useSyncExternalStore } from 'react';
import { storage } from './storage';

/** The main menu's size, remembered in this browser (SPEC section 3: menu size preference). */
export type MenuSize = 'full' | 'mini';

const MENU_SIZE_KEY = 'menuSize';
const listeners = new Set<() => void>();

export function getMenuSize(): MenuSize {
  return storage.get(MENU_SIZE_KEY) === 'mini' ? 'mini' : 'full';
}

export function setMenuSize(size: MenuSize): void {
  storage.set(MENU_SIZE_KEY, size);
  listeners.forEach((listener) => {
    listener();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === `tandem.${MENU_SIZE_KEY}`) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useMenuSize(): MenuSize {
  return useSyncExternalStore(subscribe, getMenuSize, () => 'full');
}
