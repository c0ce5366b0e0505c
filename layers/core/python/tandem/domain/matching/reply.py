"""The reply-time signal's effect on ranking, in one place (issue 28): a brand that rarely
answers the requests it receives ranks lower, in Matches and in search's best-fit sort alike.

`reply_factor(answer_rate)` multiplies a candidate's match score. The answer rate is the
brand's figures of the last 90 days (tandem.domain.reply_time, read from its BrandReplyStats
item); None — fewer than MIN_RECEIVED ended requests — leaves the score alone, so a new brand
is not punished for having no history. REPLY_WEIGHT was chosen by measurement
(tests/bench/reply_signal.py; figures in docs/decisions.md).
"""

from __future__ import annotations

REPLY_WEIGHT = 0.18  # a brand that never answers keeps 82% of its score
REPLY_PIVOT = 0.6  # answering at least this share of requests costs nothing


def reply_factor(answer_rate: float | None, weight: float = REPLY_WEIGHT) -> float:
    """The multiplier of a candidate's score for its answer rate (0..1, or None: unknown):
    1 from REPLY_PIVOT up, falling linearly to 1 - weight for a brand that never answers."""
    if answer_rate is None:
        return 1.0
    rate = min(1.0, max(0.0, float(answer_rate)))
    return 1.0 - weight * max(0.0, REPLY_PIVOT - rate) / REPLY_PIVOT
