"""Match scoring.

This is the walking-skeleton scorer: a symmetric overlap of values, collaboration kinds and
audience that produces member-facing reasons. The reciprocal engine (issue "Brands and
matching") replaces `score_pair`; the batching and ranking contract stays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Profile:
    brand_id: int
    account_id: str
    category: str = ""
    values: frozenset[str] = frozenset()
    collab_kinds: frozenset[str] = frozenset()
    countries: frozenset[str] = frozenset()
    age_bands: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Scored:
    candidate_id: int
    score: float
    reasons: tuple[str, ...] = field(default_factory=tuple)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def score_pair(me: Profile, other: Profile) -> Scored:
    reasons: list[str] = []
    kinds = me.collab_kinds & other.collab_kinds
    if kinds:
        reasons.append(f"You both want {', '.join(sorted(kinds)[:2])}")
    values = me.values & other.values
    if values:
        reasons.append(f"You share the values {', '.join(sorted(values)[:2])}")
    markets = me.countries & other.countries
    if markets:
        reasons.append(f"You both reach customers in {', '.join(sorted(markets)[:2])}")
    score = (
        0.4 * _jaccard(me.collab_kinds, other.collab_kinds)
        + 0.25 * _jaccard(me.values, other.values)
        + 0.2 * _jaccard(me.countries, other.countries)
        + 0.15 * _jaccard(me.age_bands, other.age_bands)
    )
    if me.category and me.category == other.category:
        score *= 0.5  # same category: more likely to compete than to complement
    return Scored(other.brand_id, round(score, 4), tuple(reasons))


def rank(me: Profile, candidates: Iterable[Profile], limit: int) -> list[Scored]:
    """Best `limit` candidates for `me`, excluding its own account's brands and zero scores."""
    scored = [
        score_pair(me, other)
        for other in candidates
        if other.account_id != me.account_id and other.brand_id != me.brand_id
    ]
    scored = [s for s in scored if s.score > 0]
    scored.sort(key=lambda s: (-s.score, s.candidate_id))
    return scored[:limit]


def merge_ranked(batches: Iterable[Sequence[Scored]], limit: int) -> list[Scored]:
    merged = [s for batch in batches for s in batch]
    merged.sort(key=lambda s: (-s.score, s.candidate_id))
    return merged[:limit]


def split_batches(ids: Sequence[int], size: int) -> list[list[int]]:
    if size < 1:
        raise ValueError("batch size must be at least 1")
    return [list(ids[i : i + size]) for i in range(0, len(ids), size)]
