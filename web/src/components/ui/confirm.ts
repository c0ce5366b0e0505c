import { createStore } from '@/lib/store';

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

const pending = createStore<readonly PendingConfirm[]>([]);
let nextId = 1;

function settle(id: number): void {
  pending.set(pending.get().filter((item) => item.id !== id));
}

export function confirm(options: ConfirmOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const id = nextId++;
    pending.set([
      ...pending.get(),
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
  pending.set([]);
}

export function usePendingConfirms(): readonly PendingConfirm[] {
  return pending.use();
}
