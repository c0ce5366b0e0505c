"""The reply-time signal's effect on ranking, in one place (issue 28): a brand that rarely
answers the requests it receives ranks lower, in Matches and in search's best-fit sort alike.

`reply_factor(answer_rate)` multiplies a candidate's match score. The answer rate is the
brand's figures of the last 90 days (tandem.domain.reply_time, read from its BrandReplyStats
item); None — fewer than MIN_RECEIVED ended requests — leaves the score alone, so a new brand
is not punished for having no history. REPLY_WEIGHT was chosen by measurement
(tests/bench/reply_signal.py; figures in docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

from tandem.domain.reply_time import MIN_RECEIVED

REPLY_WEIGHT = 0.12  # a brand that never answers keeps 88% of its score
REPLY_PIVOT = 0.6  # answering at least this share of requests costs nothing


def reply_factor(answer_rate: float | None, weight: float = REPLY_WEIGHT) -> float:
    """The multiplier of a candidate's score for its answer rate (0..1, or None: unknown):
    1 from REPLY_PIVOT up, falling linearly to 1 - weight for a brand that never answers."""
    if answer_rate is None:
        return 1.0
    rate = min(1.0, max(0.0, float(answer_rate)))
    return 1.0 - weight * max(0.0, REPLY_PIVOT - rate) / REPLY_PIVOT


# The signal as ranking reads it from the match index: a brand's answer rate folded into a tier
# kept in two bits of its search row (tandem.domain.search_rows.REPLY_TIER), so a match run and a
# search apply it without reading anyone's reply figures. Tier 0: no history (fewer than
# MIN_RECEIVED ended requests) or answering at least REPLY_PIVOT; tiers 1-3: equal bands below
# the pivot, the lowest answer rates last. Each tier ranks with reply_factor at its band's middle.
TIERS = 4
_BAND = REPLY_PIVOT / (TIERS - 1)  # 0.2: tier 1 answers 40-60%, tier 2 20-40%, tier 3 under 20%


def reply_tier(received: int, answered: int) -> int:
    """The tier of a brand that received `received` ended requests (last 90 days) and answered
    `answered` of them."""
    if received < MIN_RECEIVED:
        return 0
    rate = min(1.0, max(0.0, answered / received))
    for tier in range(TIERS - 1):  # 0, then each band down from the pivot, its floor included
        if rate >= round(REPLY_PIVOT - tier * _BAND, 9):
            return tier
    return TIERS - 1


def tier_factor(tier: int, weight: float = REPLY_WEIGHT) -> float:
    """The multiplier of a tier: reply_factor at the middle of its band (tier 0: 1)."""
    if not 0 < tier < TIERS:
        return 1.0
    return reply_factor(REPLY_PIVOT - (tier - 0.5) * _BAND, weight)


def tier_factors(tiers: Any) -> Any:
    """tier_factor of each element of a numpy array of tiers (vectorised: float32)."""
    import numpy as np

    table = np.array([tier_factor(t) for t in range(TIERS)], dtype=np.float32)
    return table[np.asarray(tiers, dtype=np.intp)]
