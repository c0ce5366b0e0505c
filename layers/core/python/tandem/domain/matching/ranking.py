"""One pair scored with its reasons (`score_pair`), one brand's candidates ranked in plain Python
(scores, reasons, diversity), and ranked batches merged."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tandem.domain.matching.diversity import POOL_FACTOR, diversify
from tandem.domain.matching.reasons import explain
from tandem.domain.matching.scoring import Profile, Scored, combine, competes, fit

# ---------------------------------------------------------------- ranking (plain Python)


def score_pair(me: Profile, other: Profile) -> Scored:
    same = bool(me.category) and me.category.strip().lower() == other.category.strip().lower()
    score = combine(fit(me, other), fit(other, me), same) * competes(me, other)
    reasons, keys = explain(me, other)
    return Scored(other.brand_id, round(score, 4), reasons, other.category, keys)


def rank(me: Profile, candidates: Iterable[Profile], limit: int, exclude: Iterable[int] = ()) -> list[Scored]:
    """Best `limit` candidates for `me`: not its own account's brands, not `exclude`, not zero;
    diversified so the list is not near-copies."""
    excluded = set(exclude)
    scored = [
        score_pair(me, other)
        for other in candidates
        if other.account_id != me.account_id
        and other.brand_id != me.brand_id
        and other.brand_id not in excluded
    ]
    scored = [s for s in scored if s.score > 0]
    scored.sort(key=lambda s: (-s.score, s.candidate_id))
    return diversify(scored[: limit * POOL_FACTOR], limit)


def merge_ranked(batches: Iterable[Sequence[Scored]], limit: int) -> list[Scored]:
    merged = [s for batch in batches for s in batch]
    merged.sort(key=lambda s: (-s.score, s.candidate_id))
    return merged[:limit]


def split_batches(ids: Sequence[int], size: int) -> list[list[int]]:
    if size < 1:
        raise ValueError("batch size must be at least 1")
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]
