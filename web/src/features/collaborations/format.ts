import { currencySymbol, formatOrdinalDate } from '@/lib/format';

/** How collaborations show their dates and money (pure functions). */

/** A plan's date ('YYYY-MM-DD', the member's own) as a local date. */
export function planDate(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

export function formatPlanDate(day: string | null | undefined, now: Date = new Date()): string {
  return day ? formatOrdinalDate(planDate(day), now) : '';
}

/** Today in the member's time zone, as 'YYYY-MM-DD' (the date inputs' minimum). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Revenue by currency, e.g. '£1,250.50 · $300'. */
export function formatRevenue(revenue: Readonly<Record<string, number>>): string {
  const parts = Object.entries(revenue).map(([currency, minor]) => money(minor, currency));
  return parts.length ? parts.join(' · ') : '–';
}

export function money(minor: number, currency: string): string {
  const whole = minor % 100 === 0;
  const amount = (minor / 100).toLocaleString('en-GB', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
  const symbol = currency === 'GBP' ? '£' : currency === 'USD' ? currencySymbol('usd') : `${currency} `;
  return `${symbol}${amount}`;
}

