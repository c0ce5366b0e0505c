"""Exploration slots with logged propensities (issue 37): a small, fixed share of a Matches list's
places goes to brands the model is unsure of, drawn at random with a known probability, so the
training (tandem.domain.matching.training, which weighs each shown card by 1 / its propensity,
at most MAX_IPW) does not learn only from what the ranking already chose.

- Which places: the fifth of each ten after the first ten (places 15, 25, 35 and 45 of 50: 8%
  of the list). Not in the first ten: on our tuning world one explored card in the top ten cost
  0.009-0.013 p@10 every week of the simulation (tests/bench/platform_sim.py, docs/decisions.md
  2026-12-04) for no measurable gain in what the model learned.
- Who may fill them: `unsure` brands (an incomplete profile, or no behaviour the model knows of)
  among the pool the run ranked, outside the cards the list keeps by rank.
- How: k places, m such brands: k of them drawn uniformly without replacement, each shown with
  probability k / m (its propensity, logged on the card and on every view of it); every card
  kept by rank has propensity 1. With m <= k every unsure brand is shown (propensity 1) and the
  places left go back to the ranking. A list shorter than its limit explores nothing (every
  candidate is shown anyway).

A fair share of the first ten (`fair_top`): the first ten places hold at least the incomplete
profiles' share of the pool the run ranked (FAIR_SHARE of it, rounded), the best-ranked of them moved
up in place of the lowest-ranked complete ones. A ranking that is sure of full profiles and not of
empty fields otherwise fills the first ten with full profiles: on our world at 0% noise, after a
week of learning, incomplete profiles had 0.27 of their share of true partners in the top ten
(issue 37 asks for at least 0.8).

Pure Python (no numpy): the runs' last step uses it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import TypeVar

from tandem.domain.matching.scoring import Profile

T = TypeVar("T")

EXPLORE_FROM = 10  # the first ten places are the ranking's
EXPLORE_EVERY = 10
EXPLORE_AT = 4  # place (from 0) within each EXPLORE_EVERY


FAIR_SHARE = 1.0  # the first ten hold at least the pool's share of incomplete profiles (0.9 tried)


def fair_top(
    ranked: Sequence[T],
    pool: Sequence[T],
    is_incomplete: Callable[[T], bool],
    top: int = EXPLORE_FROM,
    *,
    share: float | None = None,
) -> list[T]:
    """`ranked` (best first) with its first `top` places holding at least FAIR_SHARE of the share
    of incomplete profiles in `pool` (the ranked pool the list was chosen from), rounded: the
    best-ranked incomplete ones after the first `top` move up, in their order, to the end of the
    first `top`; as many of its lowest-ranked complete ones move down to just after it. Nothing
    moves when the first `top` already hold their share. `share`: the pool's share when the
    caller has counted it (brand search, over every result: `pool` is then not read)."""
    head, tail = list(ranked[:top]), list(ranked[top:])
    if share is None:
        if not pool:
            return list(ranked)
        share = sum(1 for item in pool if is_incomplete(item)) / len(pool)
    if not head:
        return list(ranked)
    need = int(FAIR_SHARE * share * len(head) + 0.5)  # rounded half up
    have = sum(1 for item in head if is_incomplete(item))
    if have >= need:
        return list(ranked)
    up = [item for item in tail if is_incomplete(item)][: need - have]
    down_from = [i for i, item in enumerate(head) if not is_incomplete(item)]
    down = set(down_from[len(down_from) - len(up) :])  # none when nothing moves up
    lifted = {id(item) for item in up}
    return (
        [item for i, item in enumerate(head) if i not in down]
        + up
        + [head[i] for i in sorted(down)]
        + [item for item in tail if id(item) not in lifted]
    )


def places(limit: int) -> list[int]:
    """The list places (from 0) that exploration may fill in a list of `limit` cards."""
    return list(range(EXPLORE_FROM + EXPLORE_AT, limit, EXPLORE_EVERY))


def incomplete(profile: Profile) -> bool:
    """A profile missing any field the matcher reads beyond its category."""
    return not (
        profile.company_size
        and profile.audience_size
        and profile.niche
        and profile.price_tier
        and profile.countries
        and profile.age_bands
        and profile.genders
        and profile.collab_kinds
    )


def unsure(profile: Profile, known: Collection[int] | None) -> bool:
    """The model is unsure of this brand: its profile is incomplete, or `known` (the brands whose
    behaviour the model has learned, None: no model knows anyone's) leaves it out."""
    return incomplete(profile) or (known is not None and profile.brand_id not in known)


def fill(
    ranked: Sequence[T],
    candidates: Sequence[T],
    limit: int,
    rng: random.Random,
    key: Callable[[T], int],
) -> list[tuple[T, float]]:
    """The list of at most `limit` cards as (item, propensity): `ranked` in order, with the
    exploration places filled by a uniform draw from `candidates` (the unsure brands of the
    ranked pool, in any order; `key` gives an item's brand id) that the list does not keep by
    rank."""
    if len(ranked) < limit:
        return [(item, 1.0) for item in ranked[:limit]]
    slots = places(limit)
    kept = list(ranked[: limit - len(slots)])
    kept_ids = {key(item) for item in kept}
    seen: set[int] = set()
    pool = []
    for item in candidates:
        if key(item) not in kept_ids and key(item) not in seen:
            seen.add(key(item))
            pool.append(item)
    if not pool:
        return [(item, 1.0) for item in ranked[:limit]]
    k = min(len(slots), len(pool))
    drawn = rng.sample(pool, k)
    propensity = k / len(pool)
    drawn_ids = {key(item) for item in drawn}
    # The places the draws do not fill go back to the ranking, best first.
    fillers = [item for item in ranked if key(item) not in kept_ids and key(item) not in drawn_ids]
    rest = iter([*kept, *fillers[: len(slots) - k]])
    draws = iter(drawn)
    out: list[tuple[T, float]] = []
    for place in range(limit):
        if place in slots[:k]:
            out.append((next(draws), propensity))
        else:
            nxt = next(rest, None)
            if nxt is None:
                break
            out.append((nxt, 1.0))
    return out
