"""Reciprocal match scoring (pure: no I/O).

A pair ranks high only when each brand fits what the other wants. `fit(A -> B)` says how well B
serves what A is after (A's audience, A's wanted kinds of collaboration, A's values, a category
that complements A's, a partner size A gains from); the pair's score is the geometric mean of
both directions, so a candidate that suits me but has no reason to want me cannot rank high.

Two forms of the same rules:
- `Profile` and `score_pair` (plain Python) for one pair, reasons and tests;
- a packed form (fixed-width records: small ints and uint64 bitmasks over a fixed vocabulary)
  and `score_packed`, which scores one brand against every candidate with numpy in a few
  milliseconds. `tests/unit/test_matching.py` checks that both give the same numbers.

numpy is imported inside the functions that need it: the API imports this module (through
match_runs) and must not pay numpy's import on a cold start.

The package, by what each part does:
- vocabulary.py  the terms and their bit positions;
- scoring.py     the rules and one pair in plain Python;
- reasons.py     the reasons shown on a card;
- diversity.py   keeping one category from filling a list;
- ranking.py     ranking one brand's candidates (plain Python);
- packed.py      the packed records and numpy scoring.
"""

from __future__ import annotations

from tandem.domain.matching.diversity import DIVERSITY_LAMBDA, MATCHES_KEPT, POOL_FACTOR, diversify
from tandem.domain.matching.packed import (
    FLAG_PRESENT,
    RECORD_FORMAT,
    RECORD_SIZE,
    Packed,
    PackedScores,
    account_hash,
    pack,
    record_dtype,
    score_packed,
    top_positions,
    unpack,
)
from tandem.domain.matching.ranking import merge_ranked, rank, score_pair, split_batches
from tandem.domain.matching.reasons import age_ranges, explain
from tandem.domain.matching.scoring import (
    COMPETING_FACTOR,
    COMPETITOR_FACTOR,
    COMPLEMENTS_WELL,
    SIZE_FIT,
    UNKNOWN_COMPLEMENT,
    UNKNOWN_OVERLAP,
    UNKNOWN_SIZE_FIT,
    WEIGHTS,
    Profile,
    Scored,
    combine,
    complement,
    fit,
)
from tandem.domain.vocabulary import (
    AGE_BANDS,
    AUDIENCE_SIZES,
    CATEGORIES,
    COLLAB_KINDS,
    COMPANY_SIZES,
    COUNTRIES,
    COUNTRY_WORDS,
    FORM_KINDS,
    GENDERS,
    NICHES,
    PRICE_TIERS,
    VALUES,
    VOCAB_VERSION,
    category_code,
)

__all__ = [
    "CATEGORIES",
    "COMPANY_SIZES",
    "AUDIENCE_SIZES",
    "NICHES",
    "PRICE_TIERS",
    "AGE_BANDS",
    "GENDERS",
    "COLLAB_KINDS",
    "FORM_KINDS",
    "VALUES",
    "COUNTRIES",
    "COUNTRY_WORDS",
    "VOCAB_VERSION",
    "category_code",
    "UNKNOWN_COMPLEMENT",
    "COMPLEMENTS_WELL",
    "complement",
    "SIZE_FIT",
    "UNKNOWN_SIZE_FIT",
    "UNKNOWN_OVERLAP",
    "WEIGHTS",
    "COMPETING_FACTOR",
    "COMPETITOR_FACTOR",
    "Profile",
    "Scored",
    "fit",
    "combine",
    "score_pair",
    "age_ranges",
    "explain",
    "MATCHES_KEPT",
    "POOL_FACTOR",
    "DIVERSITY_LAMBDA",
    "diversify",
    "rank",
    "merge_ranked",
    "split_batches",
    "RECORD_FORMAT",
    "RECORD_SIZE",
    "FLAG_PRESENT",
    "account_hash",
    "pack",
    "unpack",
    "record_dtype",
    "Packed",
    "PackedScores",
    "score_packed",
    "top_positions",
]
