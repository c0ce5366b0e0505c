"""Why a pair fits, in words a member reads on a match card (`explain`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tandem.domain.countries import COUNTRY_NAMES, country_in_phrase
from tandem.domain.matching.scoring import COMPLEMENTS_WELL, Profile, complement
from tandem.domain.vocabulary import (
    AGE_BANDS,
    CATEGORIES,
    COLLAB_KINDS,
    GENDERS,
    VALUES,
    category_code,
)

# ---------------------------------------------------------------- reasons


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _in_order(terms: Iterable[str], vocab: Sequence[str]) -> list[str]:
    """Listed terms in vocabulary order (in the member's spelling of the list)."""
    wanted = {t.strip().lower() for t in terms}
    return [term for term in vocab if term.lower() in wanted]


_RANGE_WORD = {"kids": "kids'", "pets": "pet", "outdoors": "outdoor"}


def _range_word(category: str) -> str:
    name = category.strip().lower()
    return _RANGE_WORD.get(name, name)


def _band(band: str) -> tuple[int, int | None] | None:
    """'25-34' -> (25, 34), '55+' -> (55, None), 'under 18' -> (0, 17); None if unreadable."""
    text = band.strip().lower()
    if text.startswith("under "):
        top = text[6:]
        return (0, int(top) - 1) if top.isdigit() else None
    if text.endswith("+") and text[:-1].isdigit():
        return int(text[:-1]), None
    low, _, high = text.partition("-")
    return (int(low), int(high)) if low.isdigit() and high.isdigit() else None


def age_ranges(bands: Sequence[str]) -> list[str]:
    """Neighbouring bands read as one range: ['25-34', '35-44'] -> ['25-44'], ['45-54', '55+']
    -> ['45+']."""
    parsed = [(_band(b), b) for b in bands]
    if any(p is None for p, _ in parsed):
        return list(bands)
    spans = sorted(p for p, _ in parsed)  # type: ignore[type-var]
    merged: list[list[int | None]] = []
    for low, high in spans:
        last = merged[-1] if merged else None
        if last is not None and last[1] is not None and low == last[1] + 1:
            last[1] = high
        else:
            merged.append([low, high])
    words = []
    for low, high in merged:
        if high is None:
            words.append(f"{low}+")
        elif low == 0:
            words.append(f"under {high + 1}")
        else:
            words.append(f"{low}-{high}")
    return words


def explain(me: Profile, other: Profile, limit: int = 4) -> tuple[tuple[str, ...], frozenset[str]]:
    """Member-worded reasons why `other` suits `me` (strongest first) and the keys they rest on."""
    reasons: list[tuple[float, str, str]] = []  # (strength, text, key)
    common_countries = {c.strip().upper() for c in me.countries} & {
        c.strip().upper() for c in other.countries
    }
    countries = sorted((c for c in common_countries if c in COUNTRY_NAMES), key=lambda c: COUNTRY_NAMES[c])
    ages = _in_order(_lower_common(me.age_bands, other.age_bands), AGE_BANDS)
    genders = _in_order(_lower_common(me.genders, other.genders), GENDERS)
    if countries:
        who = _and(genders) if genders and len(genders) < len(GENDERS) else "people"
        if ages:
            who = f"{who} {_and(age_ranges(ages))}"
        places = [country_in_phrase(c) for c in countries[:3]]
        if len(countries) > 3:
            places = [*places[:2], f"{len(countries) - 2} more countries"]
        text = f"You both reach {who} in {_and(places)}"
        key = f"audience:{','.join(countries[:2])}:{','.join(genders)}:{','.join(ages)}"
        reasons.append((1.0 + len(ages) * 0.1, text, key))
    kinds = _in_order(_lower_common(me.collab_kinds, other.collab_kinds), COLLAB_KINDS)
    if kinds:
        reasons.append(
            (0.9 + 0.1 * len(kinds), f"They want {_and(kinds[:2])}, like you", f"kinds:{kinds[0]}")
        )
    values = _in_order(_lower_common(me.values, other.values), VALUES)
    if values:
        text = f"You share {_and(values[:2])} values"
        reasons.append((0.8 + 0.1 * len(values), text, f"values:{','.join(values[:2])}"))
    comp = complement(me.category, other.category)
    if comp >= COMPLEMENTS_WELL and category_code(other.category) <= len(CATEGORIES):
        text = (
            f"Their {_range_word(other.category)} products complement your {_range_word(me.category)} range"
        )
        reasons.append((0.5 + comp * 0.3, text, f"category:{other.category.strip().lower()}"))
    if me.company_size and me.company_size.strip().lower() == other.company_size.strip().lower():
        reasons.append((0.3, f"You're a similar size ({me.company_size} people)", "size"))
    reasons.sort(key=lambda r: -r[0])
    chosen = reasons[:limit]
    return tuple(text for _, text, _ in chosen), frozenset(key for _, _, key in chosen)


def _lower_common(a: frozenset[str], b: frozenset[str]) -> set[str]:
    return {t.strip().lower() for t in a} & {t.strip().lower() for t in b}
