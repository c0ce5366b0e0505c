import { formatListDateTime, formatRelative, parseDate } from '@/lib/format';

/** A relative date ("5 minutes ago", "3 Nov 26"), the full 'j M y H:i' on hover and for machines. */
export function TimeAgo({ value, prefix }: { readonly value: string | number | null | undefined; readonly prefix?: string }) {
  const date = parseDate(value);
  if (!date) return null;
  return (
    <span className="time-ago">
      {prefix && `${prefix} `}
      <time dateTime={date.toISOString()} title={formatListDateTime(date)}>
        {formatRelative(date)}
      </time>
    </span>
  );
}
