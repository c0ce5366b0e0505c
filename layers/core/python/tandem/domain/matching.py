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
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tandem.domain.countries import COUNTRY_NAMES, country_in_phrase

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

# ---------------------------------------------------------------- vocabulary (bit positions)
# Append only: a term's position is its bit in the packed index. Changing the order needs an
# index rebuild (VOCAB_VERSION changes, and the nightly run rebuilds).
CATEGORIES = (
    "food & drink",
    "beauty",
    "home",
    "fashion",
    "wellness",
    "kids",
    "pets",
    "outdoors",
    "tech",
    "travel",
    "fitness",
    "stationery",
)
COMPANY_SIZES = ("1-10", "11-50", "51-200", "200+")
AGE_BANDS = ("under 18", "18-24", "25-34", "35-44", "45-54", "55-64", "55+", "65+")
GENDERS = ("women", "men", "non-binary")
COLLAB_KINDS = (
    "giveaways",
    "co-branded products",
    "content swaps",
    "newsletter swaps",
    "events",
    "bundles",
    "social takeovers",
    "pop-ups",
    "sampling",
    "affiliate",
    "gift with purchase",
    "podcasts",
)
VALUES = (
    "sustainable",
    "vegan",
    "independent",
    "family-run",
    "premium",
    "playful",
    "B Corp",
    "local",
    "organic",
    "cruelty-free",
    "handmade",
    "inclusive",
    "plastic-free",
    "female-founded",
    "ethical",
    "charitable",
)
COUNTRIES = tuple(sorted(COUNTRY_NAMES))  # 249 ISO codes in 4 uint64 words (256 bits)
COUNTRY_WORDS = 4

# Terms outside the vocabulary still count: they are hashed into the spare high bits, so two
# brands with the same unlisted value overlap (rarely, two different ones collide; reasons only
# ever name listed terms).
_MASK_BITS = 64


def _index(vocab: Sequence[str]) -> dict[str, int]:
    return {term.lower(): i for i, term in enumerate(vocab)}


_CATEGORY_CODE = {term: i + 1 for term, i in _index(CATEGORIES).items()}  # 0 = none
_SIZE_CODE = {term: i + 1 for term, i in _index(COMPANY_SIZES).items()}  # 0 = unknown
_AGE_BIT, _GENDER_BIT = _index(AGE_BANDS), _index(GENDERS)
_KIND_BIT, _VALUE_BIT = _index(COLLAB_KINDS), _index(VALUES)
_COUNTRY_BIT = {code.lower(): i for i, code in enumerate(COUNTRIES)}

VOCAB_VERSION = zlib.crc32(
    "|".join(
        ";".join(v) for v in (CATEGORIES, COMPANY_SIZES, AGE_BANDS, GENDERS, COLLAB_KINDS, VALUES, COUNTRIES)
    ).encode()
)


def _hash_bit(term: str, first: int, limit: int) -> int:
    return first + zlib.crc32(term.lower().encode()) % (limit - first)


def _bits(terms: Iterable[str], known: dict[str, int], limit: int = _MASK_BITS) -> int:
    mask = 0
    for term in terms:
        bit = known.get(term.strip().lower())
        mask |= 1 << (bit if bit is not None else _hash_bit(term, len(known), limit))
    return mask


def category_code(category: str) -> int:
    """1..n for the listed categories, a stable 100..254 code for others, 0 for none."""
    name = (category or "").strip().lower()
    if not name:
        return 0
    return _CATEGORY_CODE.get(name) or 100 + zlib.crc32(name.encode()) % 155


def _terms(mask: int, vocab: Sequence[str]) -> list[str]:
    return [term for i, term in enumerate(vocab) if mask >> i & 1]


# ---------------------------------------------------------------- rules (tables and weights)
# How well a partner's category complements mine (symmetric). Same category: competing, 0.
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
COMPLEMENTS_WELL = 0.7  # from here a reason says the ranges complement each other


def complement(a: str, b: str) -> float:
    ca, cb = category_code(a), category_code(b)
    if not ca or not cb:
        return UNKNOWN_COMPLEMENT
    if ca == cb:
        return 0.0
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
UNKNOWN_SIZE_FIT = 0.7
UNKNOWN_OVERLAP = 0.3  # a side left a list empty: we cannot tell, so a little credit

WEIGHTS = {"audience": 0.30, "kinds": 0.25, "category": 0.20, "values": 0.15, "size": 0.10}
COMPETING_FACTOR = 0.75  # same category: the pair competes more than it complements


def _audience(countries: float, ages: float, genders: float) -> float:
    # Markets gate the audience: no shared country, no shared customers.
    return countries * (0.4 + 0.6 * ages) * (0.6 + 0.4 * genders)


# ---------------------------------------------------------------- plain-Python form


@dataclass(frozen=True)
class Profile:
    brand_id: int
    account_id: str
    category: str = ""
    company_size: str = ""
    values: frozenset[str] = frozenset()
    collab_kinds: frozenset[str] = frozenset()
    countries: frozenset[str] = frozenset()
    age_bands: frozenset[str] = frozenset()
    genders: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Scored:
    candidate_id: int
    score: float
    reasons: tuple[str, ...] = field(default_factory=tuple)
    category: str = ""
    keys: frozenset[str] = frozenset()  # what the reasons rest on (diversity compares these)


def _shared(mine: frozenset[str], theirs: frozenset[str]) -> int:
    a, b = {t.strip().lower() for t in mine}, {t.strip().lower() for t in theirs}
    return len(a & b) if a and b else -1


def _overlap(mine: frozenset[str], theirs: frozenset[str]) -> float:
    """Share of what I listed that the partner also has (UNKNOWN_OVERLAP if either is empty)."""
    shared = _shared(mine, theirs)
    return UNKNOWN_OVERLAP if shared < 0 else shared / len(mine)


def fit(me: Profile, other: Profile) -> float:
    """How well `other` fits what `me` wants, 0..1 (directional)."""
    audience = _audience(
        _overlap(me.countries, other.countries),
        _overlap(me.age_bands, other.age_bands),
        _overlap(me.genders, other.genders),
    )
    size_me = _SIZE_CODE.get(me.company_size.strip().lower())
    size_other = _SIZE_CODE.get(other.company_size.strip().lower())
    size = SIZE_FIT[size_me - 1][size_other - 1] if size_me and size_other else UNKNOWN_SIZE_FIT
    return (
        WEIGHTS["audience"] * audience
        + WEIGHTS["kinds"] * _overlap(me.collab_kinds, other.collab_kinds)
        + WEIGHTS["category"] * complement(me.category, other.category)
        + WEIGHTS["values"] * _overlap(me.values, other.values)
        + WEIGHTS["size"] * size
    )


def combine(fit_ab: float, fit_ba: float, same_category: bool) -> float:
    """Both directions must fit: geometric mean, so a one-sided fit cannot dominate."""
    score = (fit_ab * fit_ba) ** 0.5
    return score * COMPETING_FACTOR if same_category else score


def score_pair(me: Profile, other: Profile) -> Scored:
    same = bool(me.category) and me.category.strip().lower() == other.category.strip().lower()
    score = combine(fit(me, other), fit(other, me), same)
    reasons, keys = explain(me, other)
    return Scored(other.brand_id, round(score, 4), reasons, other.category, keys)


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


# ---------------------------------------------------------------- ranking (plain Python)


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


# ---------------------------------------------------------------- packed form

# One fixed-width little-endian record per brand (66 bytes). Slot 0 of `id` means "empty".
RECORD_FORMAT = "<IQBBHBBQQ4Q"
RECORD_SIZE = struct.calcsize(RECORD_FORMAT)
FLAG_PRESENT = 1


def account_hash(account_id: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.blake2b(account_id.encode(), digest_size=8).digest(), "little") or 1


def pack(profile: Profile) -> bytes:
    """The profile as one record (pure Python: the API packs on a profile save)."""
    countries = _bits(profile.countries, _COUNTRY_BIT, COUNTRY_WORDS * 64)
    words = [(countries >> (64 * w)) & 0xFFFFFFFFFFFFFFFF for w in range(COUNTRY_WORDS)]
    return struct.pack(
        RECORD_FORMAT,
        profile.brand_id,
        account_hash(profile.account_id),
        category_code(profile.category),
        _SIZE_CODE.get((profile.company_size or "").strip().lower(), 0),
        _bits(profile.age_bands, _AGE_BIT, 16),
        _bits(profile.genders, _GENDER_BIT, 8),
        FLAG_PRESENT,
        _bits(profile.collab_kinds, _KIND_BIT),
        _bits(profile.values, _VALUE_BIT),
        *words,
    )


def unpack(record: bytes, account_id: str = "") -> Profile:
    """A record back to a profile (listed terms only; unlisted ones are hashed, not kept)."""
    brand_id, _, cat, size, ages, genders, _, kinds, values, *words = struct.unpack(RECORD_FORMAT, record)
    countries = sum(w << (64 * i) for i, w in enumerate(words))
    return Profile(
        brand_id=brand_id,
        account_id=account_id,
        category=CATEGORIES[cat - 1] if 1 <= cat <= len(CATEGORIES) else "",
        company_size=COMPANY_SIZES[size - 1] if 1 <= size <= len(COMPANY_SIZES) else "",
        values=frozenset(_terms(values, VALUES)),
        collab_kinds=frozenset(_terms(kinds, COLLAB_KINDS)),
        countries=frozenset(_terms(countries, COUNTRIES)),
        age_bands=frozenset(_terms(ages, AGE_BANDS)),
        genders=frozenset(_terms(genders, GENDERS)),
    )


def record_dtype() -> np.dtype:
    import numpy as np

    return np.dtype(
        [
            ("id", "<u4"),
            ("acct", "<u8"),
            ("cat", "u1"),
            ("size", "u1"),
            ("ages", "<u2"),
            ("genders", "u1"),
            ("flags", "u1"),
            ("kinds", "<u8"),
            ("values", "<u8"),
            ("countries", "<u8", (COUNTRY_WORDS,)),
        ]
    )


def _category_table() -> np.ndarray:
    """complement() as a 256x256 lookup on category codes (unlisted codes: UNKNOWN, same: 0)."""
    import numpy as np

    table = np.full((256, 256), UNKNOWN_COMPLEMENT, dtype=np.float32)
    for a in range(1, len(CATEGORIES) + 1):
        for b in range(1, len(CATEGORIES) + 1):
            table[a, b] = complement(CATEGORIES[a - 1], CATEGORIES[b - 1])
    np.fill_diagonal(table, 0.0)
    table[0, 0] = UNKNOWN_COMPLEMENT
    return table


def _size_table() -> np.ndarray:
    import numpy as np

    n = len(COMPANY_SIZES) + 1
    table = np.full((n, n), UNKNOWN_SIZE_FIT, dtype=np.float32)
    table[1:, 1:] = np.array(SIZE_FIT, dtype=np.float32)
    return table


class Packed:
    """Candidates as contiguous numpy columns (built once per loaded index)."""

    def __init__(self, records: np.ndarray) -> None:
        import numpy as np

        records = records[records["id"] != 0]
        self.records = records
        self.ids = np.ascontiguousarray(records["id"]).astype(np.int64)
        self.acct = np.ascontiguousarray(records["acct"])
        self.cat = np.ascontiguousarray(records["cat"]).astype(np.intp)
        self.size = np.ascontiguousarray(records["size"]).astype(np.intp)
        self.ages = np.ascontiguousarray(records["ages"]).astype(np.uint64)
        self.genders = np.ascontiguousarray(records["genders"]).astype(np.uint64)
        self.kinds = np.ascontiguousarray(records["kinds"])
        self.values = np.ascontiguousarray(records["values"])
        self.countries = np.ascontiguousarray(records["countries"])
        count = np.bitwise_count
        self.n_ages = count(self.ages).astype(np.float32)
        self.n_genders = count(self.genders).astype(np.float32)
        self.n_kinds = count(self.kinds).astype(np.float32)
        self.n_values = count(self.values).astype(np.float32)
        self.n_countries = count(self.countries).sum(axis=1, dtype=np.uint16).astype(np.float32)

    @classmethod
    def from_bytes(cls, blobs: Iterable[bytes]) -> Packed:
        import numpy as np

        data = b"".join(blobs)
        usable = len(data) - len(data) % RECORD_SIZE
        return cls(np.frombuffer(data[:usable], dtype=record_dtype()))

    def __len__(self) -> int:
        return len(self.ids)

    def record(self, position: int) -> bytes:
        return self.records[position].tobytes()


_TABLES: dict[str, Any] = {}


def _tables() -> tuple[np.ndarray, np.ndarray]:
    if not _TABLES:
        _TABLES["category"], _TABLES["size"] = _category_table(), _size_table()
    return _TABLES["category"], _TABLES["size"]


@dataclass
class PackedScores:
    score: np.ndarray  # pair score per candidate (0 where excluded)
    fit_ab: np.ndarray  # how well each candidate fits me
    fit_ba: np.ndarray  # how well I fit each candidate


def score_packed(
    me: bytes, cands: Packed, exclude: Iterable[int] = (), *, one_sided: bool = False
) -> PackedScores:
    """`me` (a packed record) against every candidate, vectorised. Own account, `me` itself and
    `exclude` score 0. `one_sided=True` ranks by fit(me -> candidate) only (the baseline the
    quality benchmark compares against)."""
    import numpy as np

    mine = np.frombuffer(me, dtype=record_dtype())[0]
    count = np.bitwise_count
    f32 = np.float32

    def common(mask: Any, column: np.ndarray) -> np.ndarray:
        return count(column & np.uint64(mask)).astype(f32)

    def both_ways(shared: np.ndarray, n_mine: float, n_theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        known = n_theirs > 0
        if n_mine:
            ab = np.where(known, shared / f32(n_mine), f32(UNKNOWN_OVERLAP))
        else:
            ab = np.full(len(shared), UNKNOWN_OVERLAP, dtype=f32)
        ba = np.where(known & (n_mine > 0), shared / np.maximum(n_theirs, 1), f32(UNKNOWN_OVERLAP))
        return ab, ba

    my_countries = mine["countries"]
    shared_countries = count(cands.countries & my_countries.astype(np.uint64)).sum(axis=1, dtype=np.uint16)
    c_ab, c_ba = both_ways(shared_countries.astype(f32), int(count(my_countries).sum()), cands.n_countries)
    a_ab, a_ba = both_ways(
        common(int(mine["ages"]), cands.ages), int(count(np.uint64(mine["ages"]))), cands.n_ages
    )
    g_ab, g_ba = both_ways(
        common(int(mine["genders"]), cands.genders), int(count(np.uint64(mine["genders"]))), cands.n_genders
    )
    k_ab, k_ba = both_ways(common(mine["kinds"], cands.kinds), int(count(mine["kinds"])), cands.n_kinds)
    v_ab, v_ba = both_ways(common(mine["values"], cands.values), int(count(mine["values"])), cands.n_values)
    category_table, size_table = _tables()
    cat_fit = category_table[int(mine["cat"]), cands.cat]
    w = WEIGHTS
    fit_ab = (
        w["audience"] * _audience(c_ab, a_ab, g_ab)
        + w["kinds"] * k_ab
        + w["category"] * cat_fit
        + w["values"] * v_ab
        + w["size"] * size_table[int(mine["size"]), cands.size]
    )
    fit_ba = (
        w["audience"] * _audience(c_ba, a_ba, g_ba)
        + w["kinds"] * k_ba
        + w["category"] * cat_fit
        + w["values"] * v_ba
        + w["size"] * size_table[cands.size, int(mine["size"])]
    )
    if one_sided:
        score = fit_ab.astype(f32)
    else:
        score = np.sqrt(fit_ab * fit_ba)
        same = (cands.cat == int(mine["cat"])) & (int(mine["cat"]) != 0)
        score = np.where(same, score * f32(COMPETING_FACTOR), score).astype(f32)
    blocked = (cands.acct == mine["acct"]) | (cands.ids == int(mine["id"]))
    excluded = np.fromiter(exclude, dtype=np.int64)
    if len(excluded):
        blocked |= np.isin(cands.ids, excluded)
    score[blocked] = 0.0
    return PackedScores(score, fit_ab, fit_ba)


def top_positions(scores: np.ndarray, count: int) -> np.ndarray:
    """Positions of the best `count` non-zero scores, best first (ties: lower position first)."""
    import numpy as np

    positive = np.flatnonzero(scores > 0)
    if len(positive) > count:
        part = np.argpartition(-scores[positive], count - 1)[:count]
        positive = positive[part]
    order = np.lexsort((positive, -scores[positive]))
    return positive[order]
