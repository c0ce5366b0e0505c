import { useSyncExternalStore } from 'react';
import { storage } from './storage';
import { createListeners } from './store';

/** The main menu's size, remembered in this browser (SPEC section 3: menu size preference). */
export type MenuSize = 'full' | 'mini';

const MENU_SIZE_KEY = 'menuSize';
const changes = createListeners();

export function getMenuSize(): MenuSize {
  return storage.get(MENU_SIZE_KEY) === 'mini' ? 'mini' : 'full';
}

export function setMenuSize(size: MenuSize): void {
  storage.set(MENU_SIZE_KEY, size);
  changes.notify();
}

function subscribe(listener: () => void): () => void {
  const unsubscribe = changes.subscribe(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === `tandem.${MENU_SIZE_KEY}`) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}

export function useMenuSize(): MenuSize {
  return useSyncExternalStore(subscribe, getMenuSize, () => 'full');
}
