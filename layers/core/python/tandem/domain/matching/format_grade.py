"""A format that worked for a brand, as a learned grade (issue 41).

Each side of a finished collaboration says whether it would partner again; the brand keeps the
counts per format (Brand.format_outcomes: {format: {"again": n, "not": n}}). A format's grade is
a bounded boost of the pair score of candidates that offer that format:

    boost = MAX_BOOST * max(0, again - not) / (again + not + SHRINK)

so it is 0 without outcomes or when the bad ones are as many as the good, grows with each
"would partner again", is shrunk toward 0 while there are few outcomes (one outcome: 0.06) and
never reaches MAX_BOOST (docs/decisions.md, 2026-12-03). The rules' weights are not touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tandem.domain.vocabulary import FORM_KINDS

MAX_BOOST = 0.3  # at most a 30% higher pair score for a candidate offering a proven format
SHRINK = 4  # outcomes of no signal each grade starts with (one "again": 1/5 of the bound)


def format_boost(again: int, not_again: int) -> float:
    """The grade of one format from its outcome counts: 0 <= boost < MAX_BOOST."""
    again, not_again = max(int(again), 0), max(int(not_again), 0)
    net = again - not_again
    if net <= 0:
        return 0.0
    return MAX_BOOST * net / (again + not_again + SHRINK)


def format_boosts(outcomes: Mapping[str, Any] | None) -> dict[str, float]:
    """{format: boost} for the formats of the brand form with a positive grade (others left out)."""
    known = {kind.lower(): kind for kind in FORM_KINDS}
    boosts: dict[str, float] = {}
    for name, counts in (outcomes or {}).items():
        kind = known.get(str(name).lower())
        if kind is None or not isinstance(counts, Mapping):
            continue
        boost = format_boost(counts.get("again", 0), counts.get("not", 0))
        if boost > 0:
            boosts[kind] = round(boost, 4)
    return boosts


def add_outcome(outcomes: Mapping[str, Any] | None, fmt: str, again: bool) -> dict[str, dict[str, int]]:
    """The counts with one more outcome of `fmt` (a new dict; the stored one is not changed)."""
    out = {
        str(name): {"again": int(counts.get("again", 0)), "not": int(counts.get("not", 0))}
        for name, counts in (outcomes or {}).items()
        if isinstance(counts, Mapping)
    }
    counts = out.setdefault(fmt, {"again": 0, "not": 0})
    counts["again" if again else "not"] += 1
    return out
