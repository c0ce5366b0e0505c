"""The matching rules in plain Python: the tables and weights, `fit` one way, the reciprocal
and `combine`, for one pair."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tandem.domain.vocabulary import (
    _AUDIENCE_CODE,
    _SIZE_CODE,
    AUDIENCE_SIZES,
    FORM_KINDS,
    category_code,
    niche_code,
    tier_code,
)

# ---------------------------------------------------------------- rules (tables and weights)
# How well a partner's category complements mine (symmetric). The same category is not
# competition by itself (another niche or price tier is a fine partner): SAME_CATEGORY.
_C = {
    "food & drink": {
        "beauty": 0.5, "home": 0.9, "fashion": 0.4, "wellness": 0.9, "kids": 0.7, "pets": 0.4, "outdoors": 0.8
    },
    "beauty": {"home": 0.6, "fashion": 0.9, "wellness": 1.0, "kids": 0.3, "pets": 0.3, "outdoors": 0.4},
    "home": {"fashion": 0.6, "wellness": 0.8, "kids": 0.7, "pets": 0.7, "outdoors": 0.5},
    "fashion": {"wellness": 0.6, "kids": 0.5, "pets": 0.4, "outdoors": 0.7},
    "wellness": {"kids": 0.4, "pets": 0.4, "outdoors": 0.8},
    "kids": {"pets": 0.6, "outdoors": 0.7},
    "pets": {"outdoors": 0.9},
    "tech": {
        "food & drink": 0.3, "beauty": 0.4, "home": 0.8, "fashion": 0.5, "wellness": 0.6, "kids": 0.6,
        "pets": 0.5, "outdoors": 0.7, "travel": 0.8, "fitness": 0.8, "stationery": 0.7,
    },
    "travel": {
        "food & drink": 0.8, "beauty": 0.6, "home": 0.4, "fashion": 0.7, "wellness": 0.8, "kids": 0.6,
        "pets": 0.5, "outdoors": 1.0, "fitness": 0.6, "stationery": 0.5,
    },
    "fitness": {
        "food & drink": 0.8, "beauty": 0.6, "home": 0.4, "fashion": 0.8, "wellness": 1.0, "kids": 0.4,
        "pets": 0.5, "outdoors": 0.9, "stationery": 0.3,
    },
    "stationery": {
        "food & drink": 0.4, "beauty": 0.4, "home": 0.8, "fashion": 0.5, "wellness": 0.6, "kids": 0.8,
        "pets": 0.4, "outdoors": 0.4,
    },
}  # fmt: skip
UNKNOWN_COMPLEMENT = 0.4  # a category outside the table, or none given
# Same category: customers' interests overlap, and another niche or tier is a fine partner
# (true fits share a category as often as not on the evaluation world); kept under
# COMPLEMENTS_WELL, so no "complements your range" reason is given for it.
SAME_CATEGORY = 0.65
COMPLEMENTS_WELL = 0.7  # from here a reason says the ranges complement each other


def complement(a: str, b: str) -> float:
    ca, cb = category_code(a), category_code(b)
    if not ca or not cb:
        return UNKNOWN_COMPLEMENT
    if ca == cb:
        return SAME_CATEGORY
    a, b = a.strip().lower(), b.strip().lower()
    return _C.get(a, {}).get(b) or _C.get(b, {}).get(a) or UNKNOWN_COMPLEMENT


# SIZE_FIT[mine][theirs]: what a partner of their size is worth to a brand of my size. A small
# brand gains from any partner; a large brand gains little from a very small one.
SIZE_FIT = (
    (1.0, 1.0, 1.0, 1.0),
    (0.8, 1.0, 1.0, 1.0),
    (0.5, 0.8, 1.0, 1.0),
    (0.3, 0.5, 0.8, 1.0),
)
UNKNOWN_SIZE_FIT = 0.5
# AUDIENCE_FIT[their band - my band + 4]: what a partner's audience (followers or list size) is
# worth to me. My own size is worth the most; a bigger one a little less (many brands look for
# peers), a smaller one much less with every band down (a big brand rarely wants a tiny one).
# Both directions multiply in the pair's score, so partners of like size rank first: one band
# apart keeps 0.38 of a level pair, two bands 0.14. Used when both brands gave an audience size;
# headcount otherwise (docs/decisions.md, 2026-11-29 "every field must fit").
AUDIENCE_FIT = (0.03, 0.08, 0.2, 0.45, 1.0, 0.85, 0.7, 0.6, 0.5)


def size_fit(my_size: int, their_size: int, my_audience: int, their_audience: int) -> float:
    """Partner size as I judge it, from codes (0 = not given): audience bands, else headcount."""
    if my_audience and their_audience:
        return AUDIENCE_FIT[their_audience - my_audience + len(AUDIENCE_SIZES) - 1]
    if my_size and their_size:
        return SIZE_FIT[my_size - 1][their_size - 1]
    return UNKNOWN_SIZE_FIT


# A side left a list empty: we cannot tell, so half credit (0.3 showed incomplete profiles half
# as often as they are true partners, at no gain in precision; docs/decisions.md, 2026-11-29).
UNKNOWN_OVERLAP = 0.5
# Kinds of collaboration are a gate: a pair needs one kind both can run. A profile that ticks
# every kind tells us nothing about which it can run, so it counts as not given (UNKNOWN_KINDS),
# like an empty list (without this rule p@10 on the evaluation world's training seed fell from
# 0.392 to 0.319 with clean profiles: ticking every kind passed the gate with every partner).
UNKNOWN_KINDS = 0.55
# Audience likeness within shared markets: ages and genders soften (no shared band is not no
# shared customer), markets do not (no shared market, no shared customers).
AGE_BASE, GENDER_BASE = 0.4, 0.6

# Every field must fit: a direction's fit is the weighted GEOMETRIC mean of its field fits, each
# at least FIELD_FLOOR (a wrong field sinks a pair; a noisy one does not zero it). Measured on
# the held-out evaluation world (tests/bench/matching_heldout.py, training seeds 21 and 22, never
# the reported ones) and the old synthetic bench: markets and partner size weigh most, the
# category table little (it did not predict fits there); shared values predicted nothing (kept
# in the reasons, not in the score).
WEIGHTS = {"markets": 1.0, "ages": 0.4, "genders": 0.4, "kinds": 0.75, "category": 0.35, "size": 1.0}
FIELD_FLOOR = 0.05
COMPETING_FACTOR = 1.0  # a category alone is not competition (0.75 kept every such pair out)


def _at_least(value: Any, floor: float) -> Any:
    """max(value, floor) for a number or, elementwise, a numpy array."""
    return value.clip(floor, None) if hasattr(value, "clip") else max(value, floor)


def direction_fit(markets: Any, ages: Any, genders: Any, kinds: Any, category: Any, size: Any) -> Any:
    """One direction's fit from its field fits (each 0..1; numbers, or numpy arrays of one
    candidate each): prod(max(f, FIELD_FLOOR) ** (w / sum of w)), so 0..1 and a pair that fails
    on one field ranks below one that is middling on all. `fit` and `score_packed` both use it."""
    fields = {
        "markets": markets,
        "ages": AGE_BASE + (1 - AGE_BASE) * ages,
        "genders": GENDER_BASE + (1 - GENDER_BASE) * genders,
        "kinds": kinds,
        "category": category,
        "size": size,
    }
    total = sum(WEIGHTS.values())
    out: Any = 1.0
    for name, value in fields.items():
        out = out * _at_least(value, FIELD_FLOOR) ** (WEIGHTS[name] / total)
    return out


# ---------------------------------------------------------------- plain-Python form


@dataclass(frozen=True)
class Profile:
    brand_id: int
    account_id: str
    category: str = ""
    company_size: str = ""
    audience_size: str = ""  # AUDIENCE_SIZES band, optional
    values: frozenset[str] = frozenset()
    collab_kinds: frozenset[str] = frozenset()
    countries: frozenset[str] = frozenset()
    age_bands: frozenset[str] = frozenset()
    genders: frozenset[str] = frozenset()
    niche: str = ""  # one of NICHES[category], optional
    price_tier: str = ""  # PRICE_TIERS, optional


@dataclass(frozen=True)
class Scored:
    candidate_id: int
    score: float
    reasons: tuple[str, ...] = field(default_factory=tuple)
    category: str = ""
    keys: frozenset[str] = frozenset()  # what the reasons rest on (diversity compares these)
    # The probability this card had of being in its list: 1 when ranked there, less when an
    # exploration place drew it (tandem.domain.matching.explore).
    propensity: float = 1.0


def _shared(mine: frozenset[str], theirs: frozenset[str]) -> int:
    a, b = {t.strip().lower() for t in mine}, {t.strip().lower() for t in theirs}
    return len(a & b) if a and b else -1


def _overlap(mine: frozenset[str], theirs: frozenset[str]) -> float:
    """Share of what I listed that the partner also has (UNKNOWN_OVERLAP if either is empty)."""
    shared = _shared(mine, theirs)
    return UNKNOWN_OVERLAP if shared < 0 else shared / len(mine)


def _kinds(mine: frozenset[str], theirs: frozenset[str]) -> float:
    """1 with a kind both list, 0 without; UNKNOWN_KINDS when either lists none or every kind the
    form offers (FORM_KINDS: checking the whole vocabulary's twelve, the gate never fired)."""
    every = {k.lower() for k in FORM_KINDS}
    a, b = {t.strip().lower() for t in mine}, {t.strip().lower() for t in theirs}
    if not a or not b or every <= a or every <= b:
        return UNKNOWN_KINDS
    return 1.0 if a & b else 0.0


def fit(me: Profile, other: Profile) -> float:
    """How well `other` fits what `me` wants, 0..1 (directional)."""
    size = size_fit(
        _SIZE_CODE.get(me.company_size.strip().lower(), 0),
        _SIZE_CODE.get(other.company_size.strip().lower(), 0),
        _AUDIENCE_CODE.get(me.audience_size.strip().lower(), 0),
        _AUDIENCE_CODE.get(other.audience_size.strip().lower(), 0),
    )
    return direction_fit(
        _overlap(me.countries, other.countries),
        _overlap(me.age_bands, other.age_bands),
        _overlap(me.genders, other.genders),
        _kinds(me.collab_kinds, other.collab_kinds),
        complement(me.category, other.category),
        size,
    )


# Competitors: the same category, the same niche and the same or a neighbouring price tier (both
# brands gave both). Their customers choose between them, so such a pair rarely partners; any
# other same-category pair is scored as any pair (docs/decisions.md, 2026-11-29, niche and tier).
COMPETITOR_FACTOR = 0.3


def competition(
    my_cat: int, their_cat: int, my_niche: int, their_niche: int, my_tier: int, their_tier: int
) -> float:
    """The pair's competition factor from codes (0 = not given): COMPETITOR_FACTOR for
    competitors, 1 otherwise (a niche or tier not given: not competition)."""
    if my_cat and my_cat == their_cat and my_niche and my_niche == their_niche and my_tier and their_tier:
        return COMPETITOR_FACTOR if abs(my_tier - their_tier) <= 1 else 1.0
    return 1.0


def competes(me: Profile, other: Profile) -> float:
    """`competition` for two profiles."""
    my_cat, their_cat = category_code(me.category), category_code(other.category)
    return competition(
        my_cat,
        their_cat,
        niche_code(me.category, me.niche),
        niche_code(other.category, other.niche),
        tier_code(me.price_tier),
        tier_code(other.price_tier),
    )


def combine(fit_ab: float, fit_ba: float, same_category: bool) -> float:
    """Both directions must fit: geometric mean, so a one-sided fit cannot dominate."""
    score = (fit_ab * fit_ba) ** 0.5
    return score * COMPETING_FACTOR if same_category else score
