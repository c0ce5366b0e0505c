import { describe, expect, it } from 'vitest';
import {
  currencySymbol,
  formatListDate,
  formatListDateTime,
  formatMoney,
  formatNumber,
  formatOrdinalDate,
  formatRelative,
  ordinal,
  parseDate,
  yearlySaving,
} from './format';

// Local-time constructors throughout: the rules are about the member's own calendar day.
const now = new Date(2026, 10, 22, 14, 0, 0);
const ago = (seconds: number, from: Date = now) => new Date(from.getTime() - seconds * 1000);
const ahead = (seconds: number, from: Date = now) => new Date(from.getTime() + seconds * 1000);

describe('formatNumber (K and M)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [999.4, '999'],
    [999.6, '1K'],
    [1_000, '1K'],
    [1_049, '1K'],
    [1_050, '1.1K'],
    [1_150, '1.2K'],
    [1_234, '1.2K'],
    [9_949, '9.9K'],
    [9_950, '10K'],
    [9_999, '10K'],
    [12_345, '12K'],
    [999_499, '999K'],
    [999_500, '1M'],
    [1_000_000, '1M'],
    [1_250_000, '1.3M'],
    [9_999_999, '10M'],
    [123_456_789, '123M'],
    [1_000_000_000, '1,000M'],
    [-1_234, '-1.2K'],
  ])('%d → %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('shows a dash for a value that is not a number', () => {
    expect(formatNumber(Number.NaN)).toBe('–');
  });
});

describe('formatRelative', () => {
  it('counts seconds, minutes and hours', () => {
    expect(formatRelative(ago(2), now)).toBe('just now');
    expect(formatRelative(ago(1), now)).toBe('just now');
    expect(formatRelative(ago(5), now)).toBe('5 seconds ago');
    expect(formatRelative(ago(59), now)).toBe('59 seconds ago');
    expect(formatRelative(ago(60), now)).toBe('1 minute ago');
    expect(formatRelative(ago(119), now)).toBe('1 minute ago');
    expect(formatRelative(ago(59 * 60 + 59), now)).toBe('59 minutes ago');
    expect(formatRelative(ago(3_600), now)).toBe('1 hour ago');
    expect(formatRelative(ago(3 * 3_600), now)).toBe('3 hours ago');
    expect(formatRelative(new Date(2026, 10, 22, 0, 0, 0), now)).toBe('14 hours ago');
  });

  it('says Yesterday across midnight, in local time', () => {
    const justAfterMidnight = new Date(2026, 10, 22, 0, 30, 0);
    expect(formatRelative(new Date(2026, 10, 21, 23, 0, 0), justAfterMidnight)).toBe('Yesterday');
    expect(formatRelative(new Date(2026, 10, 21, 0, 0, 0), justAfterMidnight)).toBe('Yesterday');
    // Under an hour still reads in minutes, even across midnight.
    expect(formatRelative(new Date(2026, 10, 21, 23, 50, 0), justAfterMidnight)).toBe('40 minutes ago');
    // 30 hours ago, but two calendar days back.
    expect(formatRelative(new Date(2026, 10, 20, 18, 30, 0), justAfterMidnight)).toBe('2 days ago');
    expect(formatRelative(new Date(2026, 10, 21, 9, 0), now)).toBe('Yesterday');
  });

  it("says 'N days ago' under 10 days, then the date", () => {
    expect(formatRelative(new Date(2026, 10, 20, 15, 0), now)).toBe('2 days ago');
    expect(formatRelative(new Date(2026, 10, 13, 9, 0), now)).toBe('9 days ago');
    expect(formatRelative(new Date(2026, 10, 12, 23, 59), now)).toBe('12 Nov 26');
    expect(formatRelative(new Date(2025, 0, 3, 9, 0), now)).toBe('3 Jan 25');
    // Calendar days, not 24-hour blocks: the same across a clock change (UK and US: late October / early November).
    expect(formatRelative(new Date(2026, 9, 24, 12, 0), new Date(2026, 9, 26, 12, 0))).toBe('2 days ago');
    expect(formatRelative(new Date(2026, 10, 1, 0, 30), new Date(2026, 10, 2, 0, 15))).toBe('Yesterday');
  });

  it('reads the future the same way, with Tomorrow', () => {
    expect(formatRelative(ahead(30), now)).toBe('in 30 seconds');
    expect(formatRelative(ahead(5 * 60), now)).toBe('in 5 minutes');
    expect(formatRelative(ahead(2 * 3_600), now)).toBe('in 2 hours');
    expect(formatRelative(new Date(2026, 10, 23, 9, 0), now)).toBe('Tomorrow');
    expect(formatRelative(new Date(2026, 10, 23, 0, 10), new Date(2026, 10, 22, 23, 0))).toBe('Tomorrow');
    expect(formatRelative(new Date(2026, 10, 26, 9, 0), now)).toBe('in 4 days');
    expect(formatRelative(new Date(2026, 11, 3, 9, 0), now)).toBe('3 Dec 26');
  });
});

describe('ordinal dates', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [24, '24th'],
    [30, '30th'],
    [31, '31st'],
    [101, '101st'],
    [111, '111th'],
  ])('%d → %s', (n, text) => {
    expect(ordinal(n)).toBe(text);
  });

  it('adds the year only when it is not this year', () => {
    expect(formatOrdinalDate(new Date(2026, 10, 3), now)).toBe('3rd November');
    expect(formatOrdinalDate(new Date(2026, 0, 31), now)).toBe('31st January');
    expect(formatOrdinalDate(new Date(2025, 2, 22), now)).toBe('22nd March 2025');
    expect(formatOrdinalDate(new Date(2027, 1, 11), now)).toBe('11th February 2027');
  });
});

describe("list dates 'j M y' and 'j M y H:i'", () => {
  it('has no leading zero on the day, a short month and a two-digit year', () => {
    expect(formatListDate(new Date(2026, 11, 3))).toBe('3 Dec 26');
    expect(formatListDate(new Date(2030, 4, 21))).toBe('21 May 30');
    expect(formatListDate(new Date(2009, 0, 1))).toBe('1 Jan 09');
  });

  it('adds the 24-hour time with minutes', () => {
    expect(formatListDateTime(new Date(2026, 11, 3, 9, 5))).toBe('3 Dec 26 09:05');
    expect(formatListDateTime(new Date(2026, 11, 3, 23, 59))).toBe('3 Dec 26 23:59');
    expect(formatListDateTime(new Date(2026, 11, 3, 0, 0))).toBe('3 Dec 26 00:00');
  });
});

describe('money', () => {
  it('uses £ for gbp and $ for anything else', () => {
    expect(currencySymbol('gbp')).toBe('£');
    expect(currencySymbol('GBP')).toBe('£');
    expect(currencySymbol('usd')).toBe('$');
    expect(currencySymbol('eur')).toBe('$');
    expect(currencySymbol(undefined)).toBe('$');
  });

  it('shows minor units without decimals when whole', () => {
    expect(formatMoney(1200, 'gbp')).toBe('£12');
    expect(formatMoney(1250, 'gbp')).toBe('£12.50');
    expect(formatMoney(1205, 'usd')).toBe('$12.05');
    expect(formatMoney(99, 'gbp')).toBe('£0.99');
    expect(formatMoney(0, 'gbp')).toBe('£0');
    expect(formatMoney(120_000, 'gbp')).toBe('£1,200');
    expect(formatMoney(123_456_78, 'usd')).toBe('$123,456.78');
    expect(formatMoney(-500, 'gbp')).toBe('-£5');
  });

  it('works out the yearly saving', () => {
    expect(yearlySaving(4_900, 49_000)).toBe(9_800);
    expect(formatMoney(yearlySaving(4_900, 49_000), 'gbp')).toBe('£98');
  });
});

describe('parseDate', () => {
  it('reads epoch seconds, ISO strings and dates, and refuses the rest', () => {
    expect(parseDate(0)?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(parseDate(1_795_000_000)?.toISOString()).toBe('2026-11-18T11:06:40.000Z');
    expect(parseDate('2026-11-22T10:00:00Z')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(parseDate(now)).toEqual(now);
    expect(parseDate('not a date')).toBeNull();
    expect(parseDate('')).toBeNull();
    expect(parseDate(null)).toBeNull();
    expect(parseDate(undefined)).toBeNull();
  });
});
