"""The display formats of SPEC section 9 for what the server writes (emails, notifications):
the twin of web/src/lib/format.ts, with the same rules and the same test cases.

Anything that depends on the current time takes `now`. Relative times and dates are read in
the time zone of `now` (give `now` in the member's zone, e.g. from the timezone-offset header),
so "Yesterday" is the member's yesterday.
"""

from __future__ import annotations

from datetime import date, datetime

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
LONG_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
RELATIVE_DAYS = 10  # "N days ago" below this, then the date
MINUTE = 60
HOUR = 60 * MINUTE


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def format_number(value: float) -> str:
    """A count abbreviated with K and M. Rounding: to the nearest (halves up), one decimal below
    10 (a trailing .0 dropped), none from 10 up; a value that rounds up to the next unit takes
    it. 999 -> '999', 1,234 -> '1.2K', 9,999 -> '10K', 999,500 -> '1M', 1,250,000 -> '1.3M'."""
    if value != value or value in (float("inf"), float("-inf")):  # NaN or infinite
        return "–"
    sign = "-" if value < 0 else ""
    n = int(abs(value) + 0.5)  # halves up, as Math.round on the absolute value
    if n < 1_000:
        return f"{sign}{n}"
    unit, suffix = (1_000, "K") if n < 999_500 else (1_000_000, "M")
    tenths = (n * 10 + unit // 2) // unit
    if tenths < 100:
        whole, tenth = divmod(tenths, 10)
        return f"{sign}{whole}{'' if tenth == 0 else f'.{tenth}'}{suffix}"
    return f"{sign}{(n + unit // 2) // unit:,}{suffix}"


def format_list_date(day: date | datetime) -> str:
    """'j M y': '3 Dec 26'."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year % 100:02d}"


def format_list_datetime(moment: datetime) -> str:
    """'j M y H:i': '3 Dec 26 09:05'."""
    return f"{format_list_date(moment)} {moment.hour:02d}:{moment.minute:02d}"


def format_relative(when: datetime, now: datetime) -> str:
    """'just now' (under 5 s), '20 seconds ago', '5 minutes ago', '3 hours ago' (same day),
    'Yesterday', '4 days ago' (under 10 days), then 'j M y'; the future reads 'in 5 minutes',
    'Tomorrow', 'in 4 days'. Both datetimes aware (or both naive); `when` is read in `now`'s zone."""
    if now.tzinfo is not None and when.tzinfo is not None:
        when = when.astimezone(now.tzinfo)
    diff = int((now - when).total_seconds())
    seconds = abs(diff)
    days = abs((now.date() - when.date()).days)

    def say(text: str) -> str:
        return f"{text} ago" if diff >= 0 else f"in {text}"

    if seconds < 5:
        return "just now"
    if seconds < MINUTE:
        return say(_plural(seconds, "second"))
    if seconds < HOUR:
        return say(_plural(seconds // MINUTE, "minute"))
    if days == 0:
        return say(_plural(seconds // HOUR, "hour"))
    if days == 1:
        return "Yesterday" if diff >= 0 else "Tomorrow"
    if days < RELATIVE_DAYS:
        return say(_plural(days, "day"))
    return format_list_date(when)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 31st."""
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}{('th', 'st', 'nd', 'rd')[n % 10] if n % 10 < 4 else 'th'}"


def format_ordinal_date(day: date | datetime, today: date | datetime) -> str:
    """'3rd November', with the year when it is not this year: '3rd November 2025'."""
    text = f"{ordinal(day.day)} {LONG_MONTHS[day.month - 1]}"
    return text if day.year == today.year else f"{text} {day.year}"


def currency_symbol(currency: str | None) -> str:
    """gbp is '£', any other currency '$' (SPEC section 3 "Products response")."""
    return "£" if (currency or "").lower() == "gbp" else "$"


def format_money(minor: int | float, currency: str | None) -> str:
    """Minor units without decimals when whole: 1200 -> '£12', 1250 -> '£12.50', 120000 -> '£1,200'."""
    cents = int(abs(minor) + 0.5)
    sign = "-" if minor < 0 and cents > 0 else ""
    whole, rest = divmod(cents, 100)
    return f"{sign}{currency_symbol(currency)}{whole:,}{'' if rest == 0 else f'.{rest:02d}'}"


def format_credits(available: int, total: int) -> str:
    """available/total: '5/6'."""
    return f"{available}/{total}"


def yearly_saving(monthly_minor: int, yearly_minor: int) -> int:
    """Twelve monthly payments minus the yearly price, in minor units."""
    return 12 * monthly_minor - yearly_minor
