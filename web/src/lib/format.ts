/**
 * The display formats of SPEC section 9, in one place. Pure functions: anything that depends
 * on the current time takes `now` (default: the current time), so tests and callers can fix it.
 * Dates are read in the browser's local time zone, in English. The email twin is
 * layers/core/python/tandem/domain/formats.py (same rules, same cases in its tests).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** Relative dates say "N days ago" below this many days, then show the date. */
export const RELATIVE_DAYS = 10;

const pad = (n: number) => String(n).padStart(2, '0');
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * A count abbreviated with K and M. Rounding: to the nearest (halves up), one decimal below 10
 * (a trailing .0 is dropped), none from 10 up; a value that rounds up to the next unit takes it.
 * 999 → '999', 1,000 → '1K', 1,234 → '1.2K', 9,949 → '9.9K', 9,999 → '10K', 12,345 → '12K',
 * 999,499 → '999K', 999,500 → '1M', 1,250,000 → '1.3M', 1,000,000,000 → '1,000M'.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const sign = value < 0 ? '-' : '';
  const n = Math.round(Math.abs(value));
  if (n < 1_000) return `${sign}${n}`;
  const scaled = (unit: number, suffix: string) => {
    const tenths = Math.floor((n * 10 + unit / 2) / unit);
    if (tenths < 100) return `${sign}${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}${suffix}`;
    return `${sign}${grouped(Math.floor((n + unit / 2) / unit))}${suffix}`;
  };
  return n < 999_500 ? scaled(1_000, 'K') : scaled(1_000_000, 'M');
}

/** A date from the API: epoch seconds (a number) or an ISO 8601 string. Null when unreadable. */
export function parseDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  let date: Date;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'number') date = new Date(value * 1000);
  else date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Calendar days from `earlier` to `later` in local time (DST-safe). */
function calendarDaysBetween(earlier: Date, later: Date): number {
  const start = Date.UTC(earlier.getFullYear(), earlier.getMonth(), earlier.getDate());
  const end = Date.UTC(later.getFullYear(), later.getMonth(), later.getDate());
  return Math.round((end - start) / 86_400_000);
}

/** 'j M y': '3 Dec 26'. */
export function formatListDate(date: Date): string {
  return `${date.getDate()} ${MONTHS[date.getMonth()] ?? ''} ${pad(date.getFullYear() % 100)}`;
}

/** 'j M y H:i': '3 Dec 26 09:05'. */
export function formatListDateTime(date: Date): string {
  return `${formatListDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Relative time: 'just now' (under 5 seconds), '20 seconds ago', '5 minutes ago', '3 hours ago'
 * (the same local day), 'Yesterday', '4 days ago' (under 10 days), then 'j M y'. In the future:
 * 'in 20 seconds', 'in 5 minutes', 'in 3 hours', 'Tomorrow', 'in 4 days', then 'j M y'.
 * Hours never cross midnight: 23:30 seen at 01:00 is 'Yesterday'.
 */
export function formatRelative(date: Date, now: Date = new Date()): string {
  const diff = Math.trunc((now.getTime() - date.getTime()) / 1000);
  const seconds = Math.abs(diff);
  const days = Math.abs(calendarDaysBetween(date, now));
  const say = (text: string) => (diff >= 0 ? `${text} ago` : `in ${text}`);
  if (seconds < 5) return 'just now';
  if (seconds < MINUTE) return say(plural(seconds, 'second'));
  if (seconds < HOUR) return say(plural(Math.floor(seconds / MINUTE), 'minute'));
  if (days === 0) return say(plural(Math.floor(seconds / HOUR), 'hour'));
  if (days === 1) return diff >= 0 ? 'Yesterday' : 'Tomorrow';
  if (days < RELATIVE_DAYS) return say(plural(days, 'day'));
  return formatListDate(date);
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 31st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** The ordinal day of month: '3rd November', with the year when not this year: '3rd November 2025'. */
export function formatOrdinalDate(date: Date, now: Date = new Date()): string {
  const text = `${ordinal(date.getDate())} ${LONG_MONTHS[date.getMonth()] ?? ''}`;
  return date.getFullYear() === now.getFullYear() ? text : `${text} ${date.getFullYear()}`;
}

/** The symbol for a price's currency: gbp is '£', any other '$' (SPEC section 3 "Products response"). */
export function currencySymbol(currency: string | null | undefined): string {
  return currency?.toLowerCase() === 'gbp' ? '£' : '$';
}

/**
 * Money held in minor units (pence, cents), without decimals when whole:
 * 1200 → '£12', 1250 → '£12.50', 120000 → '£1,200'.
 */
export function formatMoney(minor: number, currency: string | null | undefined): string {
  const cents = Math.round(Math.abs(minor));
  const sign = minor < 0 && cents > 0 ? '-' : '';
  const whole = grouped(Math.floor(cents / 100));
  const rest = cents % 100;
  return `${sign}${currencySymbol(currency)}${whole}${rest === 0 ? '' : `.${pad(rest)}`}`;
}

/** The saving of a yearly plan, in minor units: twelve monthly payments minus the yearly price. */
export function yearlySaving(monthlyMinor: number, yearlyMinor: number): number {
  return 12 * monthlyMinor - yearlyMinor;
}
