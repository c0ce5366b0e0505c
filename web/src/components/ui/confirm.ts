import { useSyncExternalStore } from 'react';

/**
 * `await confirm({ title, message })` asks the user to confirm. It resolves when
 * they confirm and rejects with Error('User cancelled') otherwise (SPEC section 8).
 * <ConfirmHost /> (mounted once by the app) shows the pending questions.
 */
export interface ConfirmOptions {
  readonly title: string;
  readonly message: string;
  readonly confirmLabel?: string;
  readonly cancelLabel?: string;
  /** Styles the confirm button as destructive. */
  readonly danger?: boolean;
}

export interface PendingConfirm extends ConfirmOptions {
  readonly id: number;
  readonly resolve: () => void;
  readonly reject: (reason: Error) => void;
}

export const USER_CANCELLED = 'User cancelled';

let pending: readonly PendingConfirm[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly PendingConfirm[]): void {
  pending = next;
  listeners.forEach((listener) => {
    listener();
  });
}

function settle(id: number): void {
  publish(pending.filter((item) => item.id !== id));
}

export function confirm(options: ConfirmOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const id = nextId++;
    publish([
      ...pending,
      {
        ...options,
        id,
        resolve: () => {
          settle(id);
          resolve();
        },
        reject: (reason) => {
          settle(id);
          reject(reason);
        },
      },
    ]);
  });
}

/** Drops every pending question without settling it (tests, full resets). */
export function resetConfirms(): void {
  publish([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getPending = () => pending;

export function usePendingConfirms(): readonly PendingConfirm[] {
  return useSyncExternalStore(subscribe, getPending, getPending);
}
