import { afterEach, beforeEach, vi } from 'vitest';

/**
 * The day a screen test's fixtures are written for. Dates in this year are shown without the
 * year ("3rd November"), so a test whose fixtures hold fixed 2026 dates reads differently from
 * 1 January 2027 (a clean clone under libfaketime found four). Only Date is faked, and it runs on
 * from here in real time; timers stay real.
 */
export const TEST_TODAY = new Date('2026-12-02T12:00:00Z');

/** Call at the top of a test file (or describe) whose expectations name dates of TEST_TODAY's year. */
export function pinToday(): void {
  beforeEach(() => {
    vi.useFakeTimers({ now: TEST_TODAY, toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
