/**
 * A send stopped by the 'Buy more to continue' overlay: the message and the brand it was
 * for survive the round trip through the hosted checkout in sessionStorage (this tab only,
 * never in the URL), keyed by the brand asked. After the payment-complete message the brand's
 * page reopens the send popup filled in (docs/decisions.md). It is cleared once sent or
 * abandoned: the popup closed by the member, or older than PENDING_SEND_MAX_AGE_MS (checkout
 * left and never come back to). Only the brand that was sending gets it back.
 */
const PREFIX = 'tandem.pendingSend.';
export const PENDING_SEND_MAX_AGE_MS = 30 * 60 * 1000;

interface StoredSend {
  readonly message: string;
  /** The member's brand that was sending. */
  readonly from: string | null;
  readonly savedAt: number;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: the send simply is not continued
  }
}

const keyOf = (toBrandId: number) => `${PREFIX}${toBrandId}`;

export function savePendingSend(toBrandId: number, from: string | null, message: string, now = Date.now()): void {
  const value: StoredSend = { message, from, savedAt: now };
  try {
    storage()?.setItem(keyOf(toBrandId), JSON.stringify(value));
  } catch {
    // full or blocked: nothing to continue later
  }
}

export function clearPendingSend(toBrandId: number): void {
  try {
    storage()?.removeItem(keyOf(toBrandId));
  } catch {
    // blocked: nothing stored either
  }
}

/** The message waiting to be sent to this brand by `from`, or null (a stale one is removed). */
export function readPendingSend(toBrandId: number, from: string | null, now = Date.now()): string | null {
  let raw: string | null = null;
  try {
    raw = storage()?.getItem(keyOf(toBrandId)) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  let stored: Partial<StoredSend> | null = null;
  try {
    stored = JSON.parse(raw) as Partial<StoredSend> | null;
  } catch {
    stored = null;
  }
  const fresh =
    stored !== null &&
    typeof stored.message === 'string' &&
    stored.message.trim() !== '' &&
    typeof stored.savedAt === 'number' &&
    now - stored.savedAt >= 0 &&
    now - stored.savedAt <= PENDING_SEND_MAX_AGE_MS;
  if (!fresh) {
    clearPendingSend(toBrandId);
    return null;
  }
  return stored?.from === from ? (stored.message ?? null) : null; // another of the member's brands: not theirs
}
