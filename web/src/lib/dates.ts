/**
 * Date texts of SPEC section 9: relative times (seconds, minutes, hours,
 * Tomorrow/Yesterday, days; days ago under 10 days), then the list format
 * 'j M y' ("3 Nov 26"); 'j M y H:i' with the time. Local time, English.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const RELATIVE_DAYS = 10;

export function parseDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  // Epoch seconds (docs/api.md) or an ISO 8601 string.
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'j M y': "3 Nov 26". */
export function formatListDate(date: Date): string {
  return `${date.getDate()} ${MONTHS[date.getMonth()] ?? ''} ${pad(date.getFullYear() % 100)}`;
}

/** 'j M y H:i': "3 Nov 26 14:05". */
export function formatListDateTime(date: Date): string {
  return `${formatListDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function calendarDaysBetween(earlier: Date, later: Date): number {
  const start = Date.UTC(earlier.getFullYear(), earlier.getMonth(), earlier.getDate());
  const end = Date.UTC(later.getFullYear(), later.getMonth(), later.getDate());
  return Math.round((end - start) / 86_400_000);
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "5 minutes ago", "Yesterday", "4 days ago", then "3 Nov 26". */
export function formatRelative(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const days = calendarDaysBetween(date, now);
  if (seconds < 0) {
    if (days === -1) return 'Tomorrow';
    if (-seconds < HOUR) return `in ${plural(Math.max(1, Math.round(-seconds / MINUTE)), 'minute')}`;
    if (-seconds < 24 * HOUR && days === 0) return `in ${plural(Math.round(-seconds / HOUR), 'hour')}`;
    return formatListDate(date);
  }
  if (seconds < 5) return 'just now';
  if (seconds < MINUTE) return `${plural(seconds, 'second')} ago`;
  if (seconds < HOUR) return `${plural(Math.floor(seconds / MINUTE), 'minute')} ago`;
  if (seconds < 24 * HOUR && days === 0) return `${plural(Math.floor(seconds / HOUR), 'hour')} ago`;
  if (days <= 1) return 'Yesterday';
  if (days < RELATIVE_DAYS) return `${days} days ago`;
  return formatListDate(date);
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

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
];

/** "3rd November", with the year when it is not this year: "3rd November 2025". */
export function formatDayOfMonth(date: Date, now: Date = new Date()): string {
  const text = `${ordinal(date.getDate())} ${LONG_MONTHS[date.getMonth()] ?? ''}`;
  return date.getFullYear() === now.getFullYear() ? text : `${text} ${date.getFullYear()}`;
}
