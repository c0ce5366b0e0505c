"""Diversifying a ranked list so one category does not fill it (`diversify`)."""

from __future__ import annotations

from collections.abc import Sequence

from tandem.domain.matching.scoring import Scored

# ---------------------------------------------------------------- diversity

MATCHES_KEPT = 50  # the cards a match run keeps for a brand (its Matches list)
POOL_FACTOR = 2  # diversity picks `limit` from the best `limit * POOL_FACTOR`
DIVERSITY_LAMBDA = 0.7  # 1.0 = pure score order
# Diversity chooses only among candidates whose score is within this share of the best one
# left: a near-tie is broken towards variety, a clearly better candidate is never passed over
# for a different one further down (docs/decisions.md, 2026-11-29). 0 since issue 37: on the
# tuning world (platform_sim, ours, 20% noise) a 0.03 margin cost 0.005 p@10 (0.148 against
# 0.153 in score order), over the 0.003 the issue allows; ties alone are still diversified.
DIVERSITY_MARGIN = 0.0


def _similarity(a: Scored, b: Scored) -> float:
    same_category = 1.0 if a.category and a.category.strip().lower() == b.category.strip().lower() else 0.0
    union = a.keys | b.keys
    same_reasons = len(a.keys & b.keys) / len(union) if union else 0.0
    return 0.5 * same_category + 0.5 * same_reasons


def diversify(
    ranked: Sequence[Scored], limit: int, lam: float = DIVERSITY_LAMBDA, margin: float = DIVERSITY_MARGIN
) -> list[Scored]:
    """Maximal marginal relevance among near-ties: take the best, then each next one by score
    minus its likeness (same category, same reasons) to what is already taken, choosing only
    among candidates within `margin` (a share) of the best score left."""
    pool = list(ranked)
    chosen: list[Scored] = []
    top = max((s.score for s in pool), default=1.0) or 1.0
    closest = [0.0] * len(pool)
    while pool and len(chosen) < limit:
        floor = max(s.score for s in pool) * (1 - margin)
        best = max(
            (i for i in range(len(pool)) if pool[i].score >= floor),
            key=lambda i: (lam * pool[i].score / top - (1 - lam) * closest[i], -pool[i].candidate_id),
        )
        pick = pool.pop(best)
        closest.pop(best)
        chosen.append(pick)
        closest = [max(c, _similarity(s, pick)) for c, s in zip(closest, pool, strict=True)]
    return chosen
