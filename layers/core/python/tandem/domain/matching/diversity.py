"""Diversifying a ranked list so one category does not fill it (`diversify`)."""

from __future__ import annotations

from collections.abc import Sequence

from tandem.domain.matching.scoring import Scored

# ---------------------------------------------------------------- diversity

POOL_FACTOR = 2  # diversity picks `limit` from the best `limit * POOL_FACTOR`
DIVERSITY_LAMBDA = 0.7  # 1.0 = pure score order


def _similarity(a: Scored, b: Scored) -> float:
    same_category = 1.0 if a.category and a.category.strip().lower() == b.category.strip().lower() else 0.0
    union = a.keys | b.keys
    same_reasons = len(a.keys & b.keys) / len(union) if union else 0.0
    return 0.5 * same_category + 0.5 * same_reasons


def diversify(ranked: Sequence[Scored], limit: int, lam: float = DIVERSITY_LAMBDA) -> list[Scored]:
    """Maximal marginal relevance: take the best, then each next one by score minus its
    likeness (same category, same reasons) to what is already taken."""
    pool = list(ranked)
    chosen: list[Scored] = []
    top = max((s.score for s in pool), default=1.0) or 1.0
    closest = [0.0] * len(pool)
    while pool and len(chosen) < limit:
        best = max(
            range(len(pool)),
            key=lambda i: (lam * pool[i].score / top - (1 - lam) * closest[i], -pool[i].candidate_id),
        )
        pick = pool.pop(best)
        closest.pop(best)
        chosen.append(pick)
        closest = [max(c, _similarity(s, pick)) for c, s in zip(closest, pool, strict=True)]
    return chosen
