"""The packed form: fixed-width records over the vocabulary and `score_packed`, which scores one
brand against every candidate with numpy. numpy is imported inside the functions that need it:
the API imports the matching package and must not pay numpy's import on a cold start."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

from tandem.domain.matching.format_grade import MAX_BOOST
from tandem.domain.matching.scoring import (
    AUDIENCE_FIT,
    COMPETING_FACTOR,
    COMPETITOR_FACTOR,
    SIZE_FIT,
    UNKNOWN_COMPLEMENT,
    UNKNOWN_KINDS,
    UNKNOWN_OVERLAP,
    UNKNOWN_SIZE_FIT,
    Profile,
    complement,
    direction_fit,
)
from tandem.domain.vocabulary import (
    _AGE_BIT,
    _AUDIENCE_CODE,
    _COUNTRY_BIT,
    _GENDER_BIT,
    _KIND_BIT,
    _SIZE_CODE,
    _VALUE_BIT,
    AGE_BANDS,
    AUDIENCE_SIZES,
    CATEGORIES,
    COLLAB_KINDS,
    COMPANY_SIZES,
    COUNTRIES,
    COUNTRY_WORDS,
    FORM_KINDS,
    GENDERS,
    PRICE_TIERS,
    VALUES,
    _bits,
    _terms,
    category_code,
    niche_code,
    niche_of,
    tier_code,
)

# ---------------------------------------------------------------- packed form

# One fixed-width little-endian record per brand (66 bytes). Slot 0 of `id` means "empty".
RECORD_FORMAT = "<IQBBHBBQQ4Q"
RECORD_SIZE = struct.calcsize(RECORD_FORMAT)
FLAG_PRESENT = 1
# The flags byte's bits 1-3 hold the audience-size code (0 = not given, 1.. = AUDIENCE_SIZES):
# the record keeps its size and the index its layout (an old record reads as "not given").
_AUDIENCE_SHIFT = 1
# The flags byte's bits 4-6 hold the niche code (0 = not given, 1.. = its place in NICHES of the
# record's category) and the size byte's bits 4-5 the price tier (0 = not given, 1.. =
# PRICE_TIERS); the company size keeps the size byte's low bits (SIZE_MASK). Same record size and
# layout: a record packed before reads "not given" for both.
_NICHE_SHIFT = 4
_TIER_SHIFT = 4
SIZE_MASK = 0x0F


def audience_code(flags: int) -> int:
    return (flags >> _AUDIENCE_SHIFT) & 7


def niche_bits(flags: int) -> int:
    return (flags >> _NICHE_SHIFT) & 7


def tier_bits(size: int) -> int:
    return (size >> _TIER_SHIFT) & 3


def account_hash(account_id: str) -> int:
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
        _SIZE_CODE.get((profile.company_size or "").strip().lower(), 0)
        | tier_code(profile.price_tier) << _TIER_SHIFT,
        _bits(profile.age_bands, _AGE_BIT, 16),
        _bits(profile.genders, _GENDER_BIT, 8),
        FLAG_PRESENT
        | _AUDIENCE_CODE.get((profile.audience_size or "").strip().lower(), 0) << _AUDIENCE_SHIFT
        | niche_code(profile.category, profile.niche) << _NICHE_SHIFT,
        _bits(profile.collab_kinds, _KIND_BIT),
        _bits(profile.values, _VALUE_BIT),
        *words,
    )


def unpack(record: bytes, account_id: str = "") -> Profile:
    """A record back to a profile (listed terms only; unlisted ones are hashed, not kept)."""
    brand_id, _, cat, size, ages, genders, flags, kinds, values, *words = struct.unpack(RECORD_FORMAT, record)
    audience, tier, size = audience_code(flags), tier_bits(size), size & SIZE_MASK
    countries = sum(w << (64 * i) for i, w in enumerate(words))
    category = CATEGORIES[cat - 1] if 1 <= cat <= len(CATEGORIES) else ""
    return Profile(
        brand_id=brand_id,
        account_id=account_id,
        category=category,
        niche=niche_of(category, niche_bits(flags)),
        price_tier=PRICE_TIERS[tier - 1] if 1 <= tier <= len(PRICE_TIERS) else "",
        company_size=COMPANY_SIZES[size - 1] if 1 <= size <= len(COMPANY_SIZES) else "",
        audience_size=AUDIENCE_SIZES[audience - 1] if 1 <= audience <= len(AUDIENCE_SIZES) else "",
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
    """complement() as a 256x256 lookup on category codes (unlisted: UNKNOWN, same: SAME_CATEGORY)."""
    import numpy as np

    table = np.full((256, 256), UNKNOWN_COMPLEMENT, dtype=np.float32)
    for a in range(1, len(CATEGORIES) + 1):
        for b in range(1, len(CATEGORIES) + 1):
            table[a, b] = complement(CATEGORIES[a - 1], CATEGORIES[b - 1])
    np.fill_diagonal(table, complement("x", "x"))
    table[0, 0] = UNKNOWN_COMPLEMENT
    return table


def _size_table() -> np.ndarray:
    import numpy as np

    n = len(COMPANY_SIZES) + 1
    table = np.full((n, n), UNKNOWN_SIZE_FIT, dtype=np.float32)
    table[1:, 1:] = np.array(SIZE_FIT, dtype=np.float32)
    return table


def _audience_table() -> np.ndarray:
    """AUDIENCE_FIT as [my band, their band] on codes (0 = not given: NaN, headcount decides)."""
    import numpy as np

    n = len(AUDIENCE_SIZES) + 1
    table = np.full((n, n), np.nan, dtype=np.float32)
    for mine in range(1, n):
        for theirs in range(1, n):
            table[mine, theirs] = AUDIENCE_FIT[theirs - mine + n - 2]
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
        self.size = (records["size"] & SIZE_MASK).astype(np.intp)
        self.tier = ((records["size"] >> _TIER_SHIFT) & 3).astype(np.intp)
        self.audience = ((records["flags"] >> _AUDIENCE_SHIFT) & 7).astype(np.intp)
        self.niche = ((records["flags"] >> _NICHE_SHIFT) & 7).astype(np.intp)
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

    def incomplete(self) -> Any:
        """explore.incomplete of every candidate as its record keeps it (a mask): any field the
        matcher reads beyond its category left empty."""
        return (
            (self.size == 0)
            | (self.audience == 0)
            | (self.niche == 0)
            | (self.tier == 0)
            | (self.n_countries == 0)
            | (self.n_ages == 0)
            | (self.n_genders == 0)
            | (self.n_kinds == 0)
        )


_TABLES: dict[str, Any] = {}


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not _TABLES:
        _TABLES["category"], _TABLES["size"] = _category_table(), _size_table()
        _TABLES["audience"] = _audience_table()
    return _TABLES["category"], _TABLES["size"], _TABLES["audience"]


# The bits of the kinds the form offers (vocabulary order: FORM_KINDS are its first six). A
# profile with all of them ticked tells us nothing (the gate counts it as not given).
FORM_KINDS_MASK = (1 << len(FORM_KINDS)) - 1
_EVERY_KIND = FORM_KINDS_MASK


def _kinds_fit(mine: int, kinds: np.ndarray) -> np.ndarray:
    """scoring._kinds for every candidate: 1 with a kind in common, 0 without, UNKNOWN_KINDS
    when either side lists none or every listed kind."""
    import numpy as np

    every = np.uint64(_EVERY_KIND)
    unknown = (kinds == 0) | ((kinds & every) == every)
    if mine == 0 or (mine & _EVERY_KIND) == _EVERY_KIND:
        return np.full(len(kinds), UNKNOWN_KINDS, dtype=np.float32)
    shared = (kinds & np.uint64(mine)) != 0
    return np.where(unknown, np.float32(UNKNOWN_KINDS), shared.astype(np.float32))


@dataclass
class PackedScores:
    score: np.ndarray  # pair score per candidate (0 where excluded)
    fit_ab: np.ndarray  # how well each candidate fits me
    fit_ba: np.ndarray  # how well I fit each candidate


def score_packed(
    me: bytes,
    cands: Packed,
    exclude: Iterable[int] = (),
    *,
    one_sided: bool = False,
    format_boosts: Mapping[str, float] | None = None,
) -> PackedScores:
    """`me` (a packed record) against every candidate, vectorised. Own account, `me` itself and
    `exclude` score 0. `one_sided=True` ranks by fit(me -> candidate) only (the baseline the
    quality benchmark compares against). `format_boosts`: the brand's learned grade per format
    (format_grade.format_boosts), raising the pair score of candidates that offer it."""
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
    kinds = _kinds_fit(int(mine["kinds"]), cands.kinds)
    category_table, size_table, audience_table = _tables()
    cat_fit = category_table[int(mine["cat"]), cands.cat]
    my_size, my_audience = int(mine["size"]) & SIZE_MASK, audience_code(int(mine["flags"]))
    size_ab = audience_table[my_audience, cands.audience]
    size_ab = np.where(np.isnan(size_ab), size_table[my_size, cands.size], size_ab)
    size_ba = audience_table[cands.audience, my_audience]
    size_ba = np.where(np.isnan(size_ba), size_table[cands.size, my_size], size_ba)
    fit_ab = direction_fit(c_ab, a_ab, g_ab, kinds, cat_fit, size_ab)
    fit_ba = direction_fit(c_ba, a_ba, g_ba, kinds, cat_fit, size_ba)
    if one_sided:
        score = fit_ab.astype(f32)
    else:
        score = np.sqrt(fit_ab * fit_ba)
        same = (cands.cat == int(mine["cat"])) & (int(mine["cat"]) != 0)
        score = np.where(same, score * f32(COMPETING_FACTOR), score).astype(f32)
        score *= _competition(mine, cands, same)
    if format_boosts:
        score = _boosted(score, cands.kinds, format_boosts)
    blocked = (cands.acct == mine["acct"]) | (cands.ids == int(mine["id"]))
    excluded = np.fromiter(exclude, dtype=np.int64)
    if len(excluded):
        blocked |= np.isin(cands.ids, excluded)
    score[blocked] = 0.0
    return PackedScores(score, fit_ab, fit_ba)


def _boosted(score: np.ndarray, kinds: np.ndarray, boosts: Mapping[str, float]) -> np.ndarray:
    """The score times 1 + the highest boost among the formats each candidate offers, at most 1
    (a candidate offering none keeps its score; 0 stays 0)."""
    import numpy as np

    factor = np.ones(len(score), dtype=np.float32)
    for kind, boost in boosts.items():
        bit = _KIND_BIT.get(kind.lower())
        if bit is None or boost <= 0:
            continue
        offers = (kinds & np.uint64(1 << bit)) != 0
        factor = np.where(offers, np.maximum(factor, np.float32(1 + min(boost, MAX_BOOST))), factor)
    return np.minimum(score * factor, np.float32(1.0)).astype(np.float32)


def _competition(mine: Any, cands: Packed, same: np.ndarray) -> np.ndarray:
    """scoring.competition for every candidate: COMPETITOR_FACTOR where the category, the niche
    (both given) and the price tier (both given, at most one step apart) say competitor."""
    import numpy as np

    my_niche, my_tier = niche_bits(int(mine["flags"])), tier_bits(int(mine["size"]))
    if not (my_niche and my_tier):
        return np.float32(1.0)
    rival = same & (cands.niche == my_niche) & (cands.tier > 0) & (np.abs(cands.tier - my_tier) <= 1)
    return np.where(rival, np.float32(COMPETITOR_FACTOR), np.float32(1.0))


def top_positions(scores: np.ndarray, count: int) -> np.ndarray:
    """Positions of the best `count` non-zero scores, best first (ties: lower position first)."""
    import numpy as np

    positive = np.flatnonzero(scores > 0)
    if len(positive) > count:
        part = np.argpartition(-scores[positive], count - 1)[:count]
        positive = positive[part]
    order = np.lexsort((positive, -scores[positive]))
    return positive[order]
