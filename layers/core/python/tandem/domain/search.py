"""Brand search (pure: no I/O): the query and its checks, name tokens, and the in-memory index
that answers a search, built from the search rows kept beside the packed match records
(tandem.domain.search_rows).

The index holds the names only of brands that show their name: a brand that hides its name is
written to its row without it (`encode_rows`), so no query can reach it by its name, and no
count, order or timing can depend on that name either (docs/decisions.md, 2026-11-29).

What a query matches:
- name tokens (for viewers who see names): exact, a word prefix, or one edit away (a typo or a
  missing letter: "northwnd" finds "Northwind") for words of 4 letters or more;
- topic words for everyone: the category, the values and the kinds of collaboration a brand
  lists ("outdoors", "vegan", "giveaways"), exact or as a prefix.
Every word of the query must match. Exact name hits rank first.

numpy is imported inside the functions that need it (the API imports this module), and so is
what only some searches use (docs/decisions.md, 2026-11-29: brand search cold path).
"""

from __future__ import annotations

import base64
import json
import re
import unicodedata
import zlib
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from tandem.domain import brand_profile
from tandem.domain.matching import (
    AGE_BANDS,
    AUDIENCE_SIZES,
    CATEGORIES,
    COLLAB_KINDS,
    COMPANY_SIZES,
    COUNTRIES,
    GENDERS,
    VALUES,
    Packed,
    category_code,
    explore,
    record_dtype,
    reply,
    score_packed,
    training,
)
from tandem.domain.search_rows import HIDDEN, decode_columns, reply_tiers
from tandem.domain.vocabulary import (
    _AGE_BIT,
    _AUDIENCE_CODE,
    _COUNTRY_BIT,
    _GENDER_BIT,
    _KIND_BIT,
    _SIZE_CODE,
    _VALUE_BIT,
)
from tandem.errors import ValidationError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

PAGE_SIZE = 20
MAX_QUERY = 100  # characters
MAX_WORDS = 8
MAX_OFFSET = 10_000  # a cursor past this is not one we gave out
FUZZY_MIN = 4  # words this long may be one edit away
SORTS = ("best", "newest", "name")
# Best fit: this many hits, best by the rules, are ordered by the match runs' rank value (the
# fresh prior and the learned model); pair features for all 100,000 brands would cost a search
# about 100 ms (docs/decisions.md, 2026-12-04).
RERANK = 2000

# The audienceSize filter takes the profile's audience bands (AUDIENCE_SIZES). A brand that gave
# no band is judged by its company size, read as the band a team of that size usually reaches
# (COMPANY_SIZES[i] -> this band), so every brand with either answer belongs to one band.
HEADCOUNT_AUDIENCE = dict(zip(COMPANY_SIZES, ("1K-10K", "10K-100K", "100K-1M", "1M+"), strict=True))

# ---------------------------------------------------------------- the query


@dataclass(frozen=True)
class Query:
    text: str = ""
    category: str | None = None
    country: str | None = None
    size: str | None = None
    age: str | None = None
    gender: str | None = None
    collab: str | None = None
    open_only: bool = False
    sort: str = "best"
    offset: int = 0

    @property
    def words(self) -> list[str]:
        return tokens(self.text)

    def signature(self) -> int:
        """What a cursor belongs to (a cursor of another search is refused)."""
        parts = (self.text.strip().lower(), self.category, self.country, self.size, self.age, self.gender)
        return zlib.crc32(json.dumps([*parts, self.collab, self.open_only, self.sort]).encode())


def _choice(raw: str | None, allowed: Sequence[str], message: str) -> str | None:
    if raw is None or not raw.strip():
        return None
    wanted = raw.strip().lower()
    for term in allowed:
        if term.lower() == wanted:
            return term
    raise ValidationError(message)


def parse_query(params: Mapping[str, str | None]) -> Query:
    """The query string of GET brands/search, checked: a 400 with a clear message otherwise."""
    text = params.get("q") or ""
    if len(text) > MAX_QUERY:
        raise ValidationError(f"Search for at most {MAX_QUERY} characters")
    if len(tokens(text)) > MAX_WORDS:
        raise ValidationError(f"Search for at most {MAX_WORDS} words")
    country = params.get("country")
    if country is not None and country.strip():
        country = country.strip().upper()
        if country not in COUNTRIES:
            raise ValidationError("Choose a country from the list")
    else:
        country = None
    open_raw = (params.get("open") or "").strip().lower()
    if open_raw not in ("", "true", "false", "1", "0"):
        raise ValidationError("open must be true or false")
    sort = (params.get("sort") or "best").strip().lower()
    if sort not in SORTS:
        raise ValidationError("Sort by best, newest or name")
    query = Query(
        text=text.strip(),
        category=_choice(params.get("category"), CATEGORIES, "Choose a category from the list"),
        country=country,
        size=_choice(params.get("audienceSize"), AUDIENCE_SIZES, "Choose an audience size from the list"),
        age=_choice(params.get("age"), AGE_BANDS, "Choose an age range from the list"),
        gender=_choice(params.get("gender"), GENDERS, "Choose an audience gender from the list"),
        collab=_choice(
            params.get("collabType"), COLLAB_KINDS, "Choose a kind of collaboration from the list"
        ),
        open_only=open_raw in ("true", "1"),
        sort=sort,
    )
    cursor = params.get("cursor")
    if cursor:
        return Query(**{**query.__dict__, "offset": read_cursor(cursor, query)})
    return query


EXPIRED_CURSOR = "That page of results is no longer available: search again"


def make_cursor(query: Query, offset: int) -> str:
    raw = json.dumps({"o": offset, "s": query.signature()}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_cursor(cursor: str, query: Query) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        offset, signature = int(data["o"]), int(data["s"])
    except (ValueError, TypeError, KeyError):
        raise ValidationError(EXPIRED_CURSOR) from None
    if signature != query.signature() or not 0 < offset <= MAX_OFFSET:
        raise ValidationError(EXPIRED_CURSOR)
    return offset


# ---------------------------------------------------------------- words

_WORD = re.compile(r"[0-9a-z]+")


def fold(text: str) -> str:
    """Lower case without accents: 'Café' -> 'cafe'."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokens(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def name_key(name: str) -> str:
    return " ".join(tokens(name))


def _topic_words() -> dict[str, list[tuple[str, str]]]:
    """Each word of a listed category, value or kind -> the (field, term) it stands for."""
    words: dict[str, list[tuple[str, str]]] = {}
    for kind, terms in (("cat", CATEGORIES), ("values", VALUES), ("kinds", COLLAB_KINDS)):
        for term in terms:
            for word in tokens(term):
                words.setdefault(word, []).append((kind, term))
    return words


TOPIC_WORDS = _topic_words()

# ---------------------------------------------------------------- the index


@dataclass
class Shard:
    """One shard as loaded: its packed records and its search rows."""

    number: int
    version: int
    records: bytes
    search: bytes | None  # encode_rows' blob (None: written before search)


@dataclass
class Index:
    """Every brand, in id order, as columns: the packed match records (scoring and filters),
    creation time, flags, and the name words of brands that show their name. What only some
    searches use (the orders by name, the words by length for typos) is made by the first
    search that needs it, not on a cold start."""

    packed: Packed
    created: np.ndarray
    flags: np.ndarray
    names: list[str]  # "" where the name is hidden or unknown
    vocab: list[str]  # distinct name words, sorted
    word_offsets: np.ndarray  # CSR: brands of vocab[i] are word_brands[o[i]:o[i+1]]
    word_brands: np.ndarray
    word_counts: np.ndarray  # how many name words each brand has (0 where not shown)
    versions: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.packed)

    @property
    def ids(self) -> np.ndarray:
        return self.packed.ids

    @cached_property
    def incomplete(self) -> np.ndarray:
        """Which brands have an incomplete profile (explore.incomplete, on their records)."""
        return self.packed.incomplete()

    @cached_property
    def by_length(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """Vocabulary words of 3 letters or more by length, as code rows (for one-edit matches)."""
        by_length: dict[int, list[int]] = {}
        for i, word in enumerate(self.vocab):
            if len(word) >= FUZZY_MIN - 1:
                by_length.setdefault(len(word), []).append(i)
        grouped = {}
        for length, ids in by_length.items():
            codes = np.frombuffer("".join(self.vocab[i] for i in ids).encode(), dtype=np.uint8)
            grouped[length] = (np.array(ids, dtype=np.int64), codes.reshape(-1, length).astype(np.uint32))
        return grouped

    @cached_property
    def _masked_names(self) -> list[str]:
        """The masked name of each category code (0: none), lower case."""
        return [brand_profile.masked_name(CATEGORIES[c - 1] if 1 <= c <= len(CATEGORIES) else "").lower()
                for c in range(len(CATEGORIES) + 1)]  # fmt: skip

    @cached_property
    def name_order(self) -> np.ndarray:
        """Rank by name as a subscriber sees it: the brands that show their name A to Z, then
        those that hide it, by their masked name ("An outdoors brand" is not a name to file
        under A). Whether a name is hidden is all it reads of a hidden brand."""
        masked = self._masked_names
        cat = np.minimum(self.packed.cat, len(masked) - 1).tolist()
        shown_as = [
            (0, name.casefold()) if name else (1, masked[c]) for name, c in zip(self.names, cat, strict=True)
        ]
        by_name = sorted(range(len(shown_as)), key=shown_as.__getitem__)  # stable: ties keep id order
        return _ranks(np.array(by_name, dtype=np.int64))

    @cached_property
    def masked_order(self) -> np.ndarray:
        """Rank by the masked name (category), then id."""
        return _ranks(np.lexsort((self.packed.ids, np.minimum(self.packed.cat, len(self._masked_names) - 1))))


# bytes.translate table: a name's word characters ([0-9a-z], as _WORD) and line ends are kept,
# everything else (spaces, punctuation, the bytes of letters left accented) becomes a space.
_WORD_BYTES = bytes(c if (48 <= c <= 57 or 97 <= c <= 122 or c == 10) else 32 for c in range(256))


def _folded_words(names: list[str]) -> bytes:
    """Every name folded (`fold`), one a line, with what is not a word character a space: one
    pass over all the names rather than a regex call per brand (the cold start's biggest cost)."""
    if all(map(str.isascii, names)):
        text = "\n".join(names).lower()
    else:
        text = "\n".join(name.lower() if name.isascii() else fold(name) for name in names)
    return text.encode().translate(_WORD_BYTES)


def build(shards: Sequence[Shard], shard_size: int) -> Index:
    """The index from loaded shards (a cold start, or after shards changed). Vectorised where
    it can be: it runs on a cold start (docs/decisions.md, 2026-11-29: brand search cold path)."""

    dtype = record_dtype()
    parts, created_parts, flag_parts, name_parts = [], [], [], []
    for shard in sorted(shards, key=lambda s: s.number):
        usable = len(shard.records) - len(shard.records) % dtype.itemsize
        records = np.frombuffer(shard.records[:usable], dtype=dtype)
        records = records[records["id"] != 0]
        slots, created, flags, shard_names = decode_columns(shard.search)
        at = np.full(shard_size, -1, dtype=np.int64)  # slot -> its row
        at[slots] = np.arange(len(slots))
        row = at[records["id"].astype(np.int64) % shard_size]
        has = row >= 0
        created_parts.append(np.where(has, created[row], 0))
        # No row yet (a shard from before search): no name, to be safe.
        row_flags = np.where(has, flags[row], HIDDEN).astype(np.uint8)
        flag_parts.append(row_flags)
        shown = (row_flags & HIDDEN) == 0
        column = np.array([*shard_names, ""], dtype=object)  # the last: a brand without a name
        name_parts.append(column[np.where(shown, row, len(shard_names))])
        parts.append(records)
    packed = Packed(np.concatenate(parts) if parts else np.zeros(0, dtype=dtype))
    n = len(packed)
    names: list[str] = np.concatenate(name_parts).tolist() if name_parts else []
    raw = _folded_words(names) if n else b""
    words = raw.decode().split()  # ascii: everything else became a space
    counts = np.zeros(n, dtype=np.int64)
    if words:
        vocab = sorted(set(words))
        word_id = {word: i for i, word in enumerate(vocab)}
        inverse = np.fromiter(map(word_id.__getitem__, words), dtype=np.int64, count=len(words))
        # Each brand's word count: where the words start, by line.
        codes = np.frombuffer(raw, dtype=np.uint8)
        inside = (codes != 32) & (codes != 10)
        starts = np.flatnonzero(inside & ~np.concatenate(([False], inside[:-1])))
        line = np.searchsorted(np.flatnonzero(codes == 10), starts)
        counts = np.bincount(line, minlength=n)
        owners = np.repeat(np.arange(n, dtype=np.int32), counts)
        order = np.argsort(inverse, kind="stable")
        brands = owners[order]
        offsets = np.searchsorted(inverse[order], np.arange(len(vocab) + 1)).astype(np.int64)
    else:
        vocab, brands, offsets = [], np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64)
    return Index(
        packed=packed,
        created=np.concatenate(created_parts) if created_parts else np.zeros(0, dtype=np.int64),
        flags=np.concatenate(flag_parts) if flag_parts else np.zeros(0, dtype=np.uint8),
        names=names,
        vocab=vocab,
        word_offsets=offsets,
        word_brands=brands,
        word_counts=counts,
        versions={s.number: s.version for s in shards},
    )


def _ranks(order: np.ndarray) -> np.ndarray:
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order))
    return ranks


# ---------------------------------------------------------------- matching words


def _one_edit(index: Index, word: str) -> list[int]:
    """Vocabulary words one edit from `word` (a letter changed, missing or extra)."""
    n = len(word)
    q = np.array([ord(c) for c in word], dtype=np.uint32)
    found: list[np.ndarray] = []
    same = index.by_length.get(n)
    if same is not None:
        ids, codes = same
        found.append(ids[(codes != q).sum(axis=1) <= 1])
    longer = index.by_length.get(n + 1)  # the query misses a letter
    if longer is not None:
        ids, codes = longer
        prefix = np.cumprod(codes[:, :n] == q, axis=1).sum(axis=1)
        suffix = np.cumprod((codes[:, 1:] == q)[:, ::-1], axis=1).sum(axis=1)
        found.append(ids[prefix + suffix >= n])
    shorter = index.by_length.get(n - 1)  # the query has a letter too many
    if shorter is not None and n > 1:
        ids, codes = shorter
        prefix = np.cumprod(codes == q[: n - 1], axis=1).sum(axis=1)
        suffix = np.cumprod((codes == q[1:])[:, ::-1], axis=1).sum(axis=1)
        found.append(ids[prefix + suffix >= n - 1])
    return sorted({int(i) for part in found for i in part})


def _word_brands(index: Index, word_ids: Iterable[int]) -> np.ndarray:
    o, b = index.word_offsets, index.word_brands
    parts = [b[o[i] : o[i + 1]] for i in word_ids]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int32)


def _topic_mask(index: Index, word: str) -> np.ndarray | None:
    """Brands whose category, values or kinds have a word starting with `word`."""

    terms = [
        t for w, ts in TOPIC_WORDS.items() if w.startswith(word) and (len(word) >= 3 or w == word) for t in ts
    ]
    if not terms:
        return None
    packed = index.packed
    mask = np.zeros(len(packed), dtype=bool)
    cats = [category_code(t) for kind, t in terms if kind == "cat"]
    if cats:
        mask |= np.isin(packed.cat, cats)
    values = sum(1 << _VALUE_BIT[t.lower()] for kind, t in terms if kind == "values")
    if values:
        mask |= (packed.values & np.uint64(values)) != 0
    kinds = sum(1 << _KIND_BIT[t.lower()] for kind, t in terms if kind == "kinds")
    if kinds:
        mask |= (packed.kinds & np.uint64(kinds)) != 0
    return mask


def text_tiers(index: Index, words: list[str], by_name: bool) -> np.ndarray:
    """Per brand: 0 no match, 1 every word matched (some by topic or one edit away), 2 every word
    matched a name word exactly or as a prefix, 3 the whole name is the query."""
    n = len(index)
    tier = np.full(n, 2 if by_name else 1, dtype=np.int8)
    for word in words:
        best = np.zeros(n, dtype=np.int8)
        if by_name:
            lo = bisect_left(index.vocab, word)
            if len(word) >= 2:
                hi = bisect_left(index.vocab, word + "\uffff")
            else:
                hi = lo + 1 if lo < len(index.vocab) and index.vocab[lo] == word else lo
            prefixed = _word_brands(index, range(lo, hi))
            if len(word) >= FUZZY_MIN:
                near = _word_brands(index, _one_edit(index, word))
                best[near] = 1
            best[prefixed] = 2
        topic = _topic_mask(index, word)
        if topic is not None:
            best = np.where(topic & (best == 0), np.int8(1), best)
        tier = np.minimum(tier, best)
    if by_name and words:
        # The whole name is the query: among the brands with as many name words (few).
        key, names = " ".join(words), index.names
        same = np.flatnonzero((tier == 2) & (index.word_counts == len(words))).tolist()
        exact = [p for p in same if name_key(names[p]) == key]
        tier[exact] = 3
    return tier


# ---------------------------------------------------------------- a search


@dataclass
class Page:
    positions: list[int]  # index positions of this page's brands, in order
    total: int
    next_offset: int | None


def filter_mask(index: Index, query: Query, excluded: np.ndarray) -> np.ndarray:

    p = index.packed
    mask = ~excluded
    if query.category:
        mask &= p.cat == category_code(query.category)
    if query.size:
        # The brand's audience band; its company size only when it gave no band.
        sizes = [_SIZE_CODE[size.lower()] for size, band in HEADCOUNT_AUDIENCE.items() if band == query.size]
        in_band = p.audience == _AUDIENCE_CODE[query.size.lower()]
        mask &= in_band | ((p.audience == 0) & np.isin(p.size, sizes))
    if query.age:
        mask &= (p.ages & np.uint64(1 << _AGE_BIT[query.age.lower()])) != 0
    if query.gender:
        mask &= (p.genders & np.uint64(1 << _GENDER_BIT[query.gender.lower()])) != 0
    if query.collab:
        mask &= (p.kinds & np.uint64(1 << _KIND_BIT[query.collab.lower()])) != 0
    if query.country:
        bit = _COUNTRY_BIT[query.country.lower()]
        mask &= (p.countries[:, bit // 64] & np.uint64(1 << (bit % 64))) != 0
    return mask


def search(
    index: Index,
    query: Query,
    *,
    excluded: np.ndarray,
    by_name: bool,
    fit: np.ndarray | None,
    rerank: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Page:
    """One page of a search. `excluded`: a mask of brands this viewer never gets (its own,
    blocked, suspended, and for `open` the feature-only ones); `by_name`: the viewer sees names
    (else only topic words match); `fit`: the reciprocal score of each brand for the viewer.
    `rerank`: for Best fit, the rank value of the brands at the given index positions (what a
    match run orders by); the RERANK hits best by `fit` are ordered by it, ahead of the rest in
    the same text tier, which follow by `fit`."""
    mask = filter_mask(index, query, excluded)
    words = query.words
    tier = text_tiers(index, words, by_name) if words else np.zeros(len(index), dtype=np.int8)
    if words:
        mask &= tier > 0
    hits = np.flatnonzero(mask)
    total = len(hits)
    end = min(total, query.offset + PAGE_SIZE)
    if query.offset >= total:
        return Page([], total, None)
    exact_first = -(tier[hits] == 3).astype(np.int8)
    if query.sort == "newest":
        keys = (-index.ids[hits], -index.created[hits], exact_first)  # ties: the later id is newer
    elif query.sort == "name":
        ranks = index.name_order if by_name else index.masked_order
        keys = (ranks[hits], exact_first)
    else:
        score = fit[hits] if fit is not None else np.zeros(total, dtype=np.float32)
        ahead = np.zeros(total, dtype=np.int8)
        if rerank is not None and fit is not None:
            best = np.argsort(-score, kind="stable")[:RERANK]
            best = best[score[best] > 0]
            if len(best):
                score = score.astype(np.float64)
                score[best] = rerank(hits[best])
                ahead[best] = 1
        keys = (index.ids[hits], -score, -ahead, -tier[hits])
    order = np.lexsort(keys)
    if query.sort == "best" and not words:
        order = fair_first_ten(order, index.incomplete[hits])
    order = order[query.offset : end]
    return Page([int(i) for i in hits[order]], total, end if end < total else None)


def fair_first_ten(order: np.ndarray, incomplete: np.ndarray) -> np.ndarray:
    """Best fit without words, as a match list's first ten (explore.fair_top): the first ten
    results hold at least the incomplete profiles' share of every result (`incomplete`: a mask in
    the results' own order; `order`: the results best first), the best-ranked of them moved up in
    place of the lowest-ranked complete ones. Every page is cut from the one order this gives, so
    no brand shows on two pages."""
    top = explore.EXPLORE_FROM
    if len(order) <= top:
        return order
    share = float(incomplete.mean())
    after = np.flatnonzero(incomplete[order[top:]])[:top]  # never more than ten move up
    window = top + (int(after[-1]) + 1 if len(after) else 0)
    moved = explore.fair_top(order[:window].tolist(), (), lambda i: bool(incomplete[i]), top, share=share)
    return np.concatenate([np.asarray(moved, dtype=order.dtype), order[window:]])


def ranked_page(
    index: Index,
    query: Query,
    me: bytes,
    excluded: np.ndarray,
    *,
    by_name: bool,
    model: Mapping[str, Any] | None,
) -> Page:
    """The page a search shows once its reads are in (`me`: the viewer's packed record; `model`:
    the stored model as match runs carry it, services/match_learning.model_json). Best fit:
    the rules' reciprocal score times each brand's reply factor (its row's reply tier), and the best of
    those ordered by the rank value match runs order by (training.rank_scores: the rules blended
    with the fresh prior, then with the learned model, times the same factor). The cards still
    show the plain fit."""
    if not len(index):
        return search(index, query, excluded=excluded, by_name=by_name, fit=None)
    rules_fit = score_packed(me, index.packed).score
    factors = reply.tier_factors(reply_tiers(index.flags))

    def rank_values(positions: np.ndarray) -> np.ndarray:
        cands = Packed(index.packed.records[positions])
        return training.rank_scores(me, cands, rules_fit[positions], model) * factors[positions]

    return search(
        index, query, excluded=excluded, by_name=by_name, fit=rules_fit * factors, rerank=rank_values
    )


def excluded_mask(index: Index, brand_ids: Iterable[int]) -> np.ndarray:
    """A mask over the index of `brand_ids`."""
    ids = np.fromiter(brand_ids, dtype=np.int64)
    return np.isin(index.ids, ids) if len(ids) else np.zeros(len(index), dtype=bool)
