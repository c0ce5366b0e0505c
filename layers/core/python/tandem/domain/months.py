"""Whole calendar months, as Stripe bills them (no I/O)."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime


def add_months(anchor: int, months: int) -> int:
    """`anchor` plus whole months, the day clamped to the month's last day (a 31 January anchor
    gives 28/29 February, then 31 March), as Stripe bills."""
    start = datetime.fromtimestamp(anchor, UTC)
    index = start.month - 1 + months
    year, month = start.year + index // 12, index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return int(start.replace(year=year, month=month, day=day).timestamp())
