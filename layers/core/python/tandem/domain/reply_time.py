"""A brand's reply-time signal (pure: no I/O): from the requests it received in the last 90
days that have ended (answered, or expired unanswered; a cancelled one says nothing about it),
its answer rate and its median time to answer, and the labels its card and page show.

The figures are kept as counters per week the requests were received in (weeks since the
epoch), so answering a request adds to them without reading anything (store/reply_stats.py):
`n` ended, `a` answered, `d1` / `d3` / `d7` answered within 1 / 3 / 7 days. The median time to
answer is known to the label's precision: within a day when at least half the answers came
within a day, and so on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DAY = 86400
WEEK = 7 * DAY
WINDOW_DAYS = 90
WINDOW_WEEKS = -(-WINDOW_DAYS // 7)  # 13: the weeks a 90-day window touches
MIN_RECEIVED = 3  # fewer ended requests: no label (no label is better than a wrong one)
MOST = 0.5  # "Replies to most requests": more than half answered
FIELDS = ("n", "a", "d1", "d3", "d7")
SPEEDS = (
    (1, "d1", "Usually replies within a day"),
    (3, "d3", "Usually replies within 3 days"),
    (7, "d7", "Usually replies within a week"),
)
REPLIES_TO_MOST = "Replies to most requests"

_ATTR = re.compile(r"^w(\d+)_(n|a|d1|d3|d7)$")


def week_of(at: int) -> int:
    return int(at) // WEEK


def parse_week_attr(name: str) -> tuple[int, str] | None:
    found = _ATTR.match(name)
    return (int(found.group(1)), found.group(2)) if found else None


def counts_for(answered_after: int | None) -> list[str]:
    """The counters one ended request adds 1 to (None: it expired unanswered)."""
    if answered_after is None:
        return ["n"]
    return ["n", "a", *(field for days, field, _ in SPEEDS if answered_after <= days * DAY)]


@dataclass(frozen=True)
class ReplyFigures:
    received: int  # ended requests received in the window
    answered: int
    within: dict[int, int]  # days -> answered within that many days

    @property
    def answer_rate(self) -> float | None:
        return self.answered / self.received if self.received else None

    def median_days(self) -> int | None:
        """The label's precision of the median time to answer: 1, 3 or 7 days, or None (slower,
        or nothing answered)."""
        for days, _, _ in SPEEDS:
            if self.answered and 2 * self.within.get(days, 0) >= self.answered:
                return days
        return None

    def labels(self) -> list[str]:
        """What the card and the brand page show; nothing under MIN_RECEIVED ended requests."""
        if self.received < MIN_RECEIVED:
            return []
        out = [text for days, _, text in SPEEDS if days == self.median_days()]
        if self.answered > MOST * self.received:
            out.append(REPLIES_TO_MOST)
        return out


# A card's labels as one small code (0-15), kept in the brand's search row (the rebuild computes
# it from the same figures as the tier) and in each match card, so the Matches screen shows the
# labels without reading anyone's figures: bits 0-1 the speed (0 none, 1-3 SPEEDS' index + 1),
# bit 2 "Replies to most requests". 0 = no labels (and what rows or cards written before read as).
_SPEED_BITS = 3
_MOST_BIT = 4
LABEL_CODE_MAX = 15


def label_code(figures: ReplyFigures) -> int:
    """The code of `figures.labels()` (label_texts is its inverse)."""
    if figures.received < MIN_RECEIVED:
        return 0
    median = figures.median_days()
    speed = next((i + 1 for i, (days, _, _) in enumerate(SPEEDS) if days == median), 0)
    return speed | (_MOST_BIT if figures.answered > MOST * figures.received else 0)


def label_texts(code: int | None) -> list[str]:
    """The labels a code stands for, in `ReplyFigures.labels` order (a code out of range, or
    None: no labels)."""
    if not code or not 0 < int(code) <= LABEL_CODE_MAX:
        return []
    code = int(code)
    speed = code & _SPEED_BITS
    out = [SPEEDS[speed - 1][2]] if speed else []
    if code & _MOST_BIT:
        out.append(REPLIES_TO_MOST)
    return out


def figures(weeks: dict[tuple[int, str], int], now: int) -> ReplyFigures:
    """Fold the weeks received in the last WINDOW_DAYS (whole weeks: the window's first week
    counts whole)."""
    first = week_of(int(now) - WINDOW_DAYS * DAY)
    total = dict.fromkeys(FIELDS, 0)
    for (week, field), count in weeks.items():
        if week >= first:
            total[field] += count
    return ReplyFigures(
        received=total["n"],
        answered=total["a"],
        within={days: total[field] for days, field, _ in SPEEDS},
    )


def figures_from_history(history: list[tuple[int, int | None]], now: int) -> ReplyFigures:
    """The same figures from a plain list of (received at, answered after or None) — what the
    counters fold to, for tests and the benchmark's population."""
    weeks: dict[tuple[int, str], int] = {}
    for received_at, after in history:
        for field in counts_for(after):
            key = (week_of(received_at), field)
            weeks[key] = weeks.get(key, 0) + 1
    return figures(weeks, now)
