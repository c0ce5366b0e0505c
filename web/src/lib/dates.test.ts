import { describe, expect, it } from 'vitest';
import { formatDayOfMonth, formatListDate, formatListDateTime, formatRelative } from './dates';

const now = new Date(2026, 10, 22, 14, 0, 0);
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('dates (SPEC section 9 formats)', () => {
  it('uses seconds, minutes, hours, Yesterday and days, then j M y', () => {
    expect(formatRelative(ago(20_000), now)).toBe('20 seconds ago');
    expect(formatRelative(ago(60_000), now)).toBe('1 minute ago');
    expect(formatRelative(ago(3 * 3_600_000), now)).toBe('3 hours ago');
    expect(formatRelative(new Date(2026, 10, 21, 9, 0), now)).toBe('Yesterday');
    expect(formatRelative(new Date(2026, 10, 13, 9, 0), now)).toBe('9 days ago');
    expect(formatRelative(new Date(2026, 10, 12, 9, 0), now)).toBe('12 Nov 26');
    expect(formatRelative(new Date(2026, 10, 23, 9, 0), now)).toBe('Tomorrow');
  });

  it("formats 'j M y' and 'j M y H:i'", () => {
    expect(formatListDate(new Date(2025, 0, 3))).toBe('3 Jan 25');
    expect(formatListDateTime(new Date(2025, 0, 3, 9, 5))).toBe('3 Jan 25 09:05');
  });

  it('shows the ordinal day of month, with the year when not this year', () => {
    expect(formatDayOfMonth(new Date(2026, 10, 1), now)).toBe('1st November');
    expect(formatDayOfMonth(new Date(2026, 10, 12), now)).toBe('12th November');
    expect(formatDayOfMonth(new Date(2026, 10, 22), now)).toBe('22nd November');
    expect(formatDayOfMonth(new Date(2025, 2, 3), now)).toBe('3rd March 2025');
  });
});
