import { beforeEach, describe, expect, it } from 'vitest';
import { clearPendingSend, PENDING_SEND_MAX_AGE_MS, readPendingSend, savePendingSend } from './pending-send';

beforeEach(() => {
  sessionStorage.clear();
});

describe('a send kept through the hosted checkout', () => {
  it('is kept in this tab by the brand asked, for the brand that was sending only', () => {
    savePendingSend(21, '3', 'Shall we do a giveaway?', 1_000);
    expect(sessionStorage.getItem('tandem.pendingSend.21')).toContain('Shall we do a giveaway?');
    expect(readPendingSend(21, '3', 2_000)).toBe('Shall we do a giveaway?');
    expect(readPendingSend(22, '3', 2_000)).toBeNull();
    expect(readPendingSend(21, '4', 2_000)).toBeNull(); // another of the member's brands
    expect(readPendingSend(21, '3', 2_000)).toBe('Shall we do a giveaway?');
    clearPendingSend(21);
    expect(readPendingSend(21, '3', 2_000)).toBeNull();
  });

  it('is dropped once older than 30 minutes (checkout left and never come back to)', () => {
    savePendingSend(21, '3', 'Hello', 0);
    expect(readPendingSend(21, '3', PENDING_SEND_MAX_AGE_MS)).toBe('Hello');
    expect(readPendingSend(21, '3', PENDING_SEND_MAX_AGE_MS + 1)).toBeNull();
    expect(sessionStorage.getItem('tandem.pendingSend.21')).toBeNull();
    sessionStorage.setItem('tandem.pendingSend.21', 'not json');
    expect(readPendingSend(21, '3')).toBeNull();
  });
});
