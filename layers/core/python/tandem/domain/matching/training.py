"""Learning from what both sides do (issue 37): the records a platform keeps of what members are
shown and do, a pure training function over them, and the learned pair score (pure: no I/O).

Records (store/learning.py keeps them with a TTL; a simulation builds them directly):
- `Impression`: one view (Matches, search, a brand page) and the cards it showed, each with its
  position and the probability it had of being shown there (1 for a ranked card, less for an
  exploration slot);
- `Action`: one thing a member did about another brand: open, save, dismiss, send, block (by the
  viewer), accept, decline (by the recipient of a request), expiry (nobody answered).

Two directions, learned and multiplied (RECON's reciprocity, learned rather than hand-set):
- the send model, P(A sends to B | B shown to A), from impressions (label: a later send);
- the accept model, P(B accepts | A sent to B), from answers and expiries.
A pair's learned score is sqrt(send(A,B) accept(A,B) send(B,A) accept(B,A)): both must want the
other. Without a model a ranking is the fresh rank value: the rules' hand score blended with a
prior fitted offline on our tuning world (`prior_model`, prior_model.json: P(mutual fit) from
public profiles alone); with one it is fresh^(1-w) x learned^w, w rising with the platform's
evidence (`blend_weight`, measured in tests/bench/platform_sim.py).

No small group can steer it: each account's rows weigh at most a bounded share (`GROUP_ROWS`),
accounts that mostly trade with each other count as one (`groups`), and the model (and any
label promise) needs evidence from at least MIN_GROUPS distinct groups.

numpy is imported inside the functions (the API must not pay for it on a cold start).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tandem.domain import brand_profile
from tandem.domain.matching import learned
from tandem.domain.matching.packed import (
    FORM_KINDS_MASK,
    Packed,
    niche_bits,
    record_dtype,
    score_packed,
    tier_bits,
    top_positions,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from tandem.domain.matching.packed import Packed

OPEN, SAVE, DISMISS, SEND, BLOCK = "open", "save", "dismiss", "send", "block"
ACCEPT, DECLINE, EXPIRY = "accept", "decline", "expiry"
# After a collaboration ended (issue 41): the actor worked with the target and would (or would
# not) partner again, with its 1-5 rating in the action's `weight`.
AGAIN, NOT_AGAIN = "partner-again", "not-again"
ACTIONS = (OPEN, SAVE, DISMISS, SEND, BLOCK, ACCEPT, DECLINE, EXPIRY, AGAIN, NOT_AGAIN)
SURFACES = ("matches", "search", "brand")
MODEL_VERSION = 2


@dataclass(frozen=True)
class Impression:
    """One view: `viewer` (brand, and its account) was shown `cards`, each (brand id, position
    from 0, propensity: the probability that card had of being shown there)."""

    viewer: int
    account: str
    at: int  # epoch s
    surface: str
    cards: tuple[tuple[int, int, float], ...]


@dataclass(frozen=True)
class Action:
    """`actor` (brand, and its account) did `kind` about `target` at `at` (epoch s). For accept,
    decline and expiry the actor is the request's recipient and the target its sender."""

    actor: int
    account: str
    target: int
    target_account: str
    kind: str
    at: int
    weight: float = 1.0  # a collaboration outcome's rating (1-5); 1 for every other action


# ---------------------------------------------------------------- features

_N_CAT = 13  # category codes 0..12 (0: none; unlisted codes count as none)
_CAT_PAIRS = [(a, b) for a in range(_N_CAT) for b in range(a, _N_CAT)]
_CAT_PAIR_INDEX = {pair: i for i, pair in enumerate(_CAT_PAIRS)}
_BASE = 23  # learned.FEATURES
# Columns swapped when the pair is seen from the other side (ab <-> ba, up <-> down).
_BASE_SWAPS = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (17, 18), (20, 21))
EXTRA = (
    "log_fit_ab",
    "log_fit_ba",
    "competitor",
    "same_niche_tier_gap",
    "every_kind_mine",
    "every_kind_theirs",
    "no_country_shared",
)
N_FEATURES = _BASE + len(EXTRA) + len(_CAT_PAIRS)
POSITION_FEATURE = N_FEATURES  # the send model's extra column: log(1 + position), 0 when scoring


def _swap_index() -> list[int]:
    perm = list(range(N_FEATURES))
    swaps = list(_BASE_SWAPS) + [(_BASE + 0, _BASE + 1), (_BASE + 4, _BASE + 5)]
    for a, b in swaps:
        perm[a], perm[b] = b, a
    return perm


def pair_x(me: bytes, cands: Packed) -> np.ndarray:
    """The pair features of `me` (a packed record) with every candidate, from `me`'s side:
    learned.FEATURES (shared items and coverage both ways, empties, sizes), the rules' fit each
    way, competition (same niche, tier gap), who ticks every kind the form offers, and the pair
    of categories. float32, N_FEATURES columns."""
    import numpy as np

    n = len(cands)
    out = np.zeros((n, N_FEATURES), dtype=np.float32)
    out[:, :_BASE] = learned.pair_features(me, cands)
    mine = np.frombuffer(me, dtype=record_dtype())[0]
    rules = score_packed(me, cands)
    out[:, _BASE + 0] = np.log(np.maximum(rules.fit_ab, 1e-3))
    out[:, _BASE + 1] = np.log(np.maximum(rules.fit_ba, 1e-3))
    my_cat = int(mine["cat"])
    my_niche, my_tier = niche_bits(int(mine["flags"])), tier_bits(int(mine["size"]))
    same_niche = (cands.cat == my_cat) & (my_cat != 0) & (my_niche != 0) & (cands.niche == my_niche)
    tiers_known = (my_tier != 0) & (cands.tier > 0)
    gap = np.abs(cands.tier - my_tier)
    out[:, _BASE + 2] = same_niche & tiers_known & (gap == 0)
    out[:, _BASE + 3] = np.where(same_niche & tiers_known, gap, 0)
    every = np.uint64(FORM_KINDS_MASK)
    out[:, _BASE + 4] = (int(mine["kinds"]) & FORM_KINDS_MASK) == FORM_KINDS_MASK
    out[:, _BASE + 5] = (cands.kinds & every) == every
    shared = np.bitwise_count(cands.countries & mine["countries"].astype(np.uint64)).sum(axis=1)
    out[:, _BASE + 6] = (
        (shared == 0) & (cands.n_countries > 0) & (np.bitwise_count(mine["countries"]).sum() > 0)
    )
    a = np.minimum(np.where(cands.cat < _N_CAT, cands.cat, 0), my_cat if my_cat < _N_CAT else 0)
    b = np.maximum(np.where(cands.cat < _N_CAT, cands.cat, 0), my_cat if my_cat < _N_CAT else 0)
    lookup = np.full((_N_CAT, _N_CAT), 0, dtype=np.intp)
    for (i, j), k in _CAT_PAIR_INDEX.items():
        lookup[i, j] = k
    out[np.arange(n), _BASE + len(EXTRA) + lookup[a, b]] = 1
    return out


def reverse(x: np.ndarray) -> np.ndarray:
    """The same pairs' features from the candidates' side."""
    return x[:, _swap_index()]


# ---------------------------------------------------------------- who may steer

GROUP_ROWS = 25  # the most rows (in weight) one group's decisions count for, in any model
GROUP_TRADE_SHARE = 0.5  # two accounts with at least this share of their requests between them...
GROUP_TRADE_MIN = 5  # ...and at least this many: one group
MIN_GROUPS = 30  # fewer distinct deciding groups than this: no model (the rules alone)
MIN_POSITIVES = 5


def groups(actions: Iterable[Action]) -> dict[str, str]:
    """{account: its group}: accounts that mostly send requests to each other (at least
    GROUP_TRADE_SHARE of each one's requests, at least GROUP_TRADE_MIN) are one group; every
    other account is its own."""
    between: dict[tuple[str, str], int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for act in actions:
        if act.kind != SEND or act.account == act.target_account:
            continue
        pair = (min(act.account, act.target_account), max(act.account, act.target_account))
        between[pair] += 1
        total[act.account] += 1
        total[act.target_account] += 1
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for (a, b), count in between.items():
        if (
            count >= GROUP_TRADE_MIN
            and count >= GROUP_TRADE_SHARE * total[a]
            and count >= GROUP_TRADE_SHARE * total[b]
        ):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    return {acct: find(acct) for acct in total}


def capped_weights(deciders: list[str], base: np.ndarray, group_of: Mapping[str, str]) -> np.ndarray:
    """Row weights with each deciding group's total at most GROUP_ROWS."""
    import numpy as np

    keys = [group_of.get(d, d) for d in deciders]
    totals: dict[str, float] = defaultdict(float)
    for k, w in zip(keys, base.tolist(), strict=True):
        totals[k] += w
    scale = np.array([min(1.0, GROUP_ROWS / totals[k]) if totals[k] > 0 else 0.0 for k in keys])
    return base * scale


# ---------------------------------------------------------------- collaborative signals

CF_DIMS = 8  # taste dimensions learned from who sends to, saves and accepts whom
# actor likes target (an accept: the recipient likes the sender)
CF_EDGE = {SEND: 1.0, SAVE: 0.5, ACCEPT: 1.0, AGAIN: 2.0}  # a collaboration that worked: the strongest
CF_MIN_EDGES = 200  # fewer liking edges than this: no collaborative signal
CF_MAX_BRANDS = 11_000  # brands the stored embedding keeps (24 bytes each with tastes, base64: 352 KB)


def _fold(a: int, b: int) -> int:
    """Which half a pair's edges go to (the same both ways): a pair's own edges never make the
    collaborative feature the model learns that pair's label from."""
    lo, hi = (a, b) if a <= b else (b, a)
    return (((lo * 1000003) ^ hi) * 2654435761 % 2**32) >> 16 & 1


def liking_edges(actions: Iterable[Action], group_of: Mapping[str, str]) -> dict[tuple[int, int], float]:
    """{(actor, target): weight} of sends, saves and accepts, each group's total at most GROUP_ROWS
    (no small group can shape everyone's tastes)."""
    edges: dict[tuple[int, int], float] = defaultdict(float)
    owner: dict[tuple[int, int], str] = {}
    for a in actions:
        weight = CF_EDGE.get(a.kind)
        if weight is None or a.actor == a.target:
            continue
        key = (a.actor, a.target)
        edges[key] = max(edges[key], weight)
        owner[key] = group_of.get(a.account, a.account)
    totals: dict[str, float] = defaultdict(float)
    for key, w in edges.items():
        totals[owner[key]] += w
    return {k: w * min(1.0, GROUP_ROWS / totals[owner[k]]) for k, w in edges.items()}


def embed(
    edges: Mapping[tuple[int, int], float], dims: int | None = None, seed: int = 0
) -> dict[str, Any] | None:
    """Each brand's taste as an actor (u) and as a target (v) from the liking edges, by a
    randomized truncated SVD of the actor x target matrix (numpy only, sparse products):
    u[a] . v[b] estimates how much a likes b. None with too few edges."""
    import numpy as np

    if len(edges) < CF_MIN_EDGES:
        return None
    ids = np.array(sorted({i for pair in edges for i in pair}), dtype=np.int64)
    where = {int(i): k for k, i in enumerate(ids.tolist())}
    rows = np.array([where[a] for a, _ in edges], dtype=np.int64)
    cols = np.array([where[b] for _, b in edges], dtype=np.int64)
    vals = np.array(list(edges.values()), dtype=np.float64)
    n, k = len(ids), min(CF_DIMS if dims is None else dims, len(ids) - 1)
    if k < 1:
        return None

    def times(x: np.ndarray) -> np.ndarray:  # R @ x
        out = np.zeros((n, x.shape[1]))
        np.add.at(out, rows, vals[:, None] * x[cols])
        return out

    def times_t(y: np.ndarray) -> np.ndarray:  # R.T @ y
        out = np.zeros((n, y.shape[1]))
        np.add.at(out, cols, vals[:, None] * y[rows])
        return out

    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(times(rng.normal(size=(n, k + 8))))
    for _ in range(3):
        q, _ = np.linalg.qr(times(times_t(q)))
    ub, sv, vt = np.linalg.svd(times_t(q).T, full_matrices=False)
    root = np.sqrt(sv[:k])
    return {"ids": ids, "u": (q @ ub[:, :k]) * root, "v": vt[:k].T * root}


def _cf_of(emb: dict[str, Any] | None, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """u[a] . v[b] per pair (0 for a brand without behaviour)."""
    import numpy as np

    if emb is None:
        return np.zeros(len(a))
    ids = emb["ids"]
    ia = np.clip(np.searchsorted(ids, a), 0, len(ids) - 1)
    ib = np.clip(np.searchsorted(ids, b), 0, len(ids) - 1)
    known = (ids[ia] == a) & (ids[ib] == b)
    return np.where(known, np.einsum("ij,ij->i", emb["u"][ia], emb["v"][ib]), 0.0)


def cf_columns(pairs: list[tuple[int, int]], folds: list[dict[str, Any] | None], scale: float) -> np.ndarray:
    """(cf_ab, cf_ba) of each (a, b) pair, from the embedding of the half its own edges are not in."""
    import numpy as np

    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    f = np.array([_fold(int(x), int(y)) for x, y in pairs], dtype=np.int64)
    out = np.zeros((len(pairs), 2))
    for half in (0, 1):
        m = f == half
        if m.any():
            out[m, 0] = _cf_of(folds[half], a[m], b[m])
            out[m, 1] = _cf_of(folds[half], b[m], a[m])
    return out / scale


# A brand's taste in partner size: the mean step (partner's code minus its own) of the company
# size and of the audience size of the brands it liked (the same liking edges), with a confidence
# n / (n + TASTE_PRIOR) over the n liked brands whose field was known. A brand that keeps liking
# partners a size above its own scores a candidate by how far it is from that step, where the
# public profile's up/down columns can only give every brand the same slope.
TASTE_PRIOR = 3.0
TASTE_FIELDS = 2  # company size, audience size
TASTE_COLUMNS = 4 * TASTE_FIELDS  # per field: deviation ab, ba; confidence ab, ba
_TASTE_STEP = 127 / 8  # int8 units of a mean step (codes differ by at most 7)


def size_codes(records: Mapping[int, bytes]) -> dict[str, np.ndarray]:
    """{ids (sorted), codes (n x TASTE_FIELDS; 0 = not given)} of these packed records."""
    import numpy as np

    ids = sorted(records)
    packed = Packed.from_bytes(records[i] for i in ids)
    return {"ids": np.asarray(ids, dtype=np.int64), "codes": np.stack([packed.size, packed.audience], axis=1)}


def _codes_of(codes: Mapping[str, np.ndarray], brands: np.ndarray) -> np.ndarray:
    import numpy as np

    ids = codes["ids"]
    at = np.clip(np.searchsorted(ids, brands), 0, max(len(ids) - 1, 0))
    known = ids[at] == brands if len(ids) else np.zeros(len(brands), dtype=bool)
    return np.where(known[:, None], codes["codes"][at], 0)


def tastes(
    edges: Mapping[tuple[int, int], float], codes: Mapping[str, np.ndarray], ids: np.ndarray
) -> np.ndarray:
    """Per brand of `ids` (as an actor): (mean step, confidence) per size field, n x 2 x TASTE_FIELDS
    (0, 0 for a brand that liked nobody whose size it knew)."""
    import numpy as np

    out = np.zeros((len(ids), 2, TASTE_FIELDS))
    if not edges or not len(ids):
        return out
    a = np.fromiter((k[0] for k in edges), dtype=np.int64, count=len(edges))
    b = np.fromiter((k[1] for k in edges), dtype=np.int64, count=len(edges))
    w = np.fromiter(edges.values(), dtype=np.float64, count=len(edges))
    mine, theirs = _codes_of(codes, a), _codes_of(codes, b)
    row = np.searchsorted(ids, a)
    ok = (row < len(ids)) & (ids[np.minimum(row, len(ids) - 1)] == a)
    for f in range(TASTE_FIELDS):
        known = ok & (mine[:, f] > 0) & (theirs[:, f] > 0)
        n = np.zeros(len(ids))
        total = np.zeros(len(ids))
        np.add.at(n, row[known], w[known])
        np.add.at(total, row[known], w[known] * (theirs[known, f] - mine[known, f]))
        out[:, 0, f] = np.where(n > 0, total / np.maximum(n, 1e-9), 0)
        out[:, 1, f] = n / (n + TASTE_PRIOR)
    return out


def _taste_at(table: Mapping[str, np.ndarray] | None, brands: np.ndarray) -> np.ndarray:
    import numpy as np

    out = np.zeros((len(brands), 2, TASTE_FIELDS))
    if table is None or not len(table["ids"]):
        return out
    ids = table["ids"]
    at = np.clip(np.searchsorted(ids, brands), 0, len(ids) - 1)
    known = ids[at] == brands
    out[known] = table["taste"][at[known]]
    return out


def taste_columns(
    t_a: np.ndarray,
    t_b: np.ndarray,
    c_a: np.ndarray,
    c_b: np.ndarray,
    fill: Iterable[float] = (0.0,) * TASTE_FIELDS,
) -> np.ndarray:
    """The TASTE_COLUMNS of pairs (a, b): per field, how far b's step from a is from a's liked step
    and a's from b's (times each one's confidence), and those confidences. Where a size is not
    given the deviation is `fill` (the mean deviation of the candidates training saw): an empty
    field reads as an average candidate, neither a close one nor a far one."""
    import numpy as np

    out = np.zeros((len(c_a), TASTE_COLUMNS))
    for f, typical in enumerate(fill):
        known = (c_a[:, f] > 0) & (c_b[:, f] > 0)
        step = (c_b[:, f] - c_a[:, f]).astype(np.float64)
        conf_a, conf_b = t_a[:, 1, f], t_b[:, 1, f]
        out[:, 4 * f + 0] = conf_a * np.where(known, np.abs(step - t_a[:, 0, f]), typical)
        out[:, 4 * f + 1] = conf_b * np.where(known, np.abs(-step - t_b[:, 0, f]), typical)
        out[:, 4 * f + 2] = conf_a
        out[:, 4 * f + 3] = conf_b
    return out


def taste_fill(cols: np.ndarray, known: np.ndarray) -> list[float]:
    """Per field, the mean deviation (per unit of confidence) of the pairs whose sizes are known."""
    out = []
    for f in range(TASTE_FIELDS):
        conf = cols[:, 4 * f + 2]
        m = known[:, f] & (conf > 0)
        out.append(round(float((cols[m, 4 * f] / conf[m]).mean()), 4) if m.any() else 0.0)
    return out


def _taste_reverse(cols: np.ndarray) -> np.ndarray:
    perm = []
    for f in range(TASTE_FIELDS):
        perm += [4 * f + 1, 4 * f + 0, 4 * f + 3, 4 * f + 2]
    return cols[:, perm]


def taste_pair_columns(
    pairs: list[tuple[int, int]],
    fold_tastes: list[dict[str, Any] | None],
    codes: Mapping[str, np.ndarray],
    fill: Iterable[float] | None = None,
) -> tuple[np.ndarray, list[float]]:
    """taste_columns of each (a, b) pair, from the tastes of the half its own edges are not in, and
    the fill they used (`fill`, or the mean deviation of these pairs' known ones)."""
    import numpy as np

    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    f = np.array([_fold(int(x), int(y)) for x, y in pairs], dtype=np.int64)
    t_a, t_b = np.zeros((len(pairs), 2, TASTE_FIELDS)), np.zeros((len(pairs), 2, TASTE_FIELDS))
    for half in (0, 1):
        m = f == half
        if m.any():
            t_a[m], t_b[m] = _taste_at(fold_tastes[half], a[m]), _taste_at(fold_tastes[half], b[m])
    c_a, c_b = _codes_of(codes, a), _codes_of(codes, b)
    if fill is None:
        fill = taste_fill(taste_columns(t_a, t_b, c_a, c_b), (c_a > 0) & (c_b > 0))
    fill = list(fill)
    return taste_columns(t_a, t_b, c_a, c_b, fill), fill


def pack_embedding(emb: dict[str, Any], scale: float) -> dict[str, Any]:
    """The full embedding as the stored model keeps it (int8 per dimension, base64): 2 x CF_DIMS
    bytes and 4 for the id a brand. Its products are halved: it saw both halves' edges."""

    import numpy as np

    if len(emb["ids"]) > CF_MAX_BRANDS:  # the most active keep theirs (the item's 400 KB)
        keep = np.sort(
            np.argsort(-(np.abs(emb["u"]).sum(axis=1) + np.abs(emb["v"]).sum(axis=1)))[:CF_MAX_BRANDS]
        )
        emb = {k: emb[k][keep] for k in ("ids", "u", "v", "taste") if k in emb}
    top = float(max(np.abs(emb["u"]).max(), np.abs(emb["v"]).max(), 1e-9))
    q = lambda m: base64.b64encode(np.round(m / top * 127).astype(np.int8).tobytes()).decode()  # noqa: E731
    out = {
        "ids": base64.b64encode(emb["ids"].astype(np.uint32).tobytes()).decode(),
        "u": q(emb["u"]),
        "v": q(emb["v"]),
        "dims": int(emb["u"].shape[1]),
        "unit": round(top / 127, 8),
        "scale": round(2 * scale, 8),
    }
    if "taste" in emb:  # (mean step x _TASTE_STEP, confidence x 127) per size field, int8
        t = emb["taste"]
        packed = np.stack(
            [np.clip(np.round(t[:, 0] * _TASTE_STEP), -127, 127), np.round(t[:, 1] * 127)], axis=1
        )
        out["taste"] = base64.b64encode(packed.astype(np.int8).tobytes()).decode()
    return out


_UNPACKED: dict[str, dict[str, Any]] = {}


def unpack_embedding(stored: Mapping[str, Any]) -> dict[str, Any]:

    import numpy as np

    key = stored["ids"][:64] + str(len(stored["ids"])) + stored["u"][:64]
    if key not in _UNPACKED:
        dims, unit = int(stored["dims"]), float(stored["unit"])
        ids = np.frombuffer(base64.b64decode(stored["ids"]), dtype=np.uint32).astype(np.int64)
        u = np.frombuffer(base64.b64decode(stored["u"]), dtype=np.int8).reshape(-1, dims) * unit
        v = np.frombuffer(base64.b64decode(stored["v"]), dtype=np.int8).reshape(-1, dims) * unit
        _UNPACKED.clear()
        _UNPACKED[key] = {"ids": ids, "u": u, "v": v, "scale": float(stored["scale"])}
        if stored.get("taste"):
            t = np.frombuffer(base64.b64decode(stored["taste"]), dtype=np.int8).reshape(-1, 2, TASTE_FIELDS)
            _UNPACKED[key]["taste"] = np.stack([t[:, 0] / _TASTE_STEP, t[:, 1] / 127.0], axis=1)
    return _UNPACKED[key]


# ---------------------------------------------------------------- training

L2 = 3.0
MAX_IPW = 10.0  # an exploration slot's row weighs at most this (1 / propensity, clipped)
EXPIRY_WEIGHT = 0.5  # an expired request: a no, weighing less than an answer (the recipient never looked)
# A collaboration outcome (issue 41) weighs more than any answer: they worked together and said
# how it went. "Would partner again" is the strongest positive label, more so the better rated.
AGAIN_WEIGHT = 2.0  # at rating 1; up to 2 x AGAIN_WEIGHT at 5


def again_weight(rating: float) -> float:
    return AGAIN_WEIGHT * (1.0 + (min(max(rating, 1.0), 5.0) - 1.0) / 4.0)


def _rows(
    pairs: list[tuple[int, int]], records: Mapping[int, bytes], extra: list[float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Features of (me, other) pairs, grouped by `me`; returns (x, kept positions)."""
    import numpy as np

    by_me: dict[int, list[int]] = defaultdict(list)
    for k, (a, b) in enumerate(pairs):
        if a in records and b in records:
            by_me[a].append(k)
    width = N_FEATURES + (1 if extra is not None else 0)
    xs, kept = [np.zeros((0, width), dtype=np.float32)], []
    for a, ks in by_me.items():
        cands = Packed.from_bytes(records[pairs[k][1]] for k in ks)
        if len(cands) != len(ks):
            continue
        x = pair_x(records[a], cands)
        if extra is not None:
            x = np.hstack([x, np.asarray([[extra[k]] for k in ks], dtype=np.float32)])
        xs.append(x)
        kept.extend(ks)
    return np.vstack(xs), np.asarray(kept, dtype=np.int64)


def send_rows(impressions: Iterable[Impression], actions: Iterable[Action]) -> list[tuple]:
    """(viewer, card, position, propensity, account, sent) per first showing of a card to a viewer."""
    sent = {(a.actor, a.target) for a in actions if a.kind == SEND}
    seen: dict[tuple[int, int], tuple] = {}
    for imp in sorted(impressions, key=lambda i: i.at):
        for brand, position, propensity in imp.cards:
            key = (imp.viewer, brand)
            if key not in seen and brand != imp.viewer:
                seen[key] = (imp.viewer, brand, position, propensity, imp.account, key in sent)
    return list(seen.values())


def answer_rows(actions: Iterable[Action]) -> list[tuple]:
    """(sender, recipient, recipient's account, accepted, weight, kind) per answered or expired
    request, and per collaboration's outcome."""
    out = []
    for a in actions:
        if a.kind in (ACCEPT, DECLINE):
            out.append((a.target, a.actor, a.account, a.kind == ACCEPT, 1.0, a.kind))
        elif a.kind == EXPIRY:
            out.append((a.target, a.actor, a.account, False, EXPIRY_WEIGHT, a.kind))
        elif a.kind == AGAIN:  # the actor would accept the target again, whoever asks
            out.append((a.target, a.actor, a.account, True, again_weight(a.weight), a.kind))
        elif a.kind == NOT_AGAIN:
            out.append((a.target, a.actor, a.account, False, 1.0, a.kind))
    return out


def _fit(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> list[float] | None:
    positives = float((w * y).sum())
    if positives < MIN_POSITIVES or float((w * (1 - y)).sum()) < MIN_POSITIVES:
        return None
    return [round(float(v), 5) for v in learned.fit_logistic(x, y, w, l2=L2, rounds=30)]


REQUEST_ANSWERS = (ACCEPT, DECLINE, EXPIRY)  # what a request's sender sees: accepted or not


CALIBRATION_BINS = 20  # the accept direction's logits in this many equal-weight bins, then isotonic


def _calibration(
    x: np.ndarray, y_fit: np.ndarray, w_fit: np.ndarray, rows: list[tuple], group_of: Mapping[str, str]
) -> tuple[dict[str, list[float]] | None, np.ndarray | None]:
    """(the accept direction calibrated in the promise's own terms, each row's cross-fitted logit
    z): {z, p}, P(accepted) at each
    knot of its logit z (np.interp between them, flat past the ends), isotonic (pool adjacent
    violators) over CALIBRATION_BINS equal-weight bins of z. Each row's z is cross-fitted: the
    accept direction refitted (`x`, `y_fit`, `w_fit`: the fit's own rows) on the other half of the
    pairs (the halves of the collaborative columns, `_fold`), so that the map is learned on logits
    as confident as a new pair's, not on the fit's own rows (in-sample logits are surer than a new
    pair's: a promise calibrated on them overpromised). Calibrated on the requests' outcomes as a
    label promises them: an expiry is a request not accepted, weighing as much as a decline (the
    fit weighs it EXPIRY_WEIGHT), a collaboration's outcome is no request; each group's rows capped
    as in the fit. Isotonic rather than Platt: a marketplace where a third of requests are never
    answered accepts at most two in three, a ceiling a sigmoid of the logit passes. None with too
    few of either answer (and no logits when a half cannot be fitted). Written here (numpy, a few
    lines) rather than taken from scikit-learn, which the core layer does not carry."""
    import numpy as np

    half = np.array([_fold(int(r[0]), int(r[1])) for r in rows], dtype=np.int64)
    z_all = np.zeros(len(rows))
    for h in (0, 1):
        other = _fit(x[half != h], y_fit[half != h], w_fit[half != h])
        if other is None:
            return None, None
        w_h = np.asarray(other, dtype=np.float64)
        z_all[half == h] = x[half == h].astype(np.float64) @ w_h[:-1] + w_h[-1]
    keep = [k for k, r in enumerate(rows) if r[5] in REQUEST_ANSWERS]
    if not keep:
        return None, z_all
    z = z_all[keep]
    y = np.array([1.0 if rows[k][3] else 0.0 for k in keep])
    w = capped_weights([rows[k][2] for k in keep], np.ones(len(keep)), group_of)
    if float((w * y).sum()) < MIN_POSITIVES or float((w * (1 - y)).sum()) < MIN_POSITIVES:
        return None, z_all
    order = np.argsort(z, kind="stable")
    z, y, w = z[order], y[order], w[order]
    edges = np.searchsorted(np.cumsum(w) / w.sum(), np.linspace(0, 1, CALIBRATION_BINS + 1)[1:-1])
    blocks = []  # [weight, weighted z, weighted y] of each bin, then pooled
    for part in np.split(np.arange(len(z)), edges):
        if len(part) and float(w[part].sum()) > 0:
            blocks.append([float(w[part].sum()), float(w[part] @ z[part]), float(w[part] @ y[part])])
    pooled: list[list[float]] = []
    for block in blocks:
        pooled.append(block)
        while len(pooled) > 1 and pooled[-2][2] / pooled[-2][0] >= pooled[-1][2] / pooled[-1][0]:
            last = pooled.pop()
            pooled[-1] = [a + b for a, b in zip(pooled[-1], last, strict=True)]
    return {
        "z": [round(b[1] / b[0], 5) for b in pooled],
        "p": [round(b[2] / b[0], 5) for b in pooled],
    }, z_all


def train(
    impressions: Iterable[Impression], actions: Iterable[Action], records: Mapping[int, bytes]
) -> dict[str, Any] | None:
    """The model of these records ({version, send, accept, evidence, groups, cf, calibration,
    held_out: see `held_out_labels`, for the caller to take out before it stores the model}: logistic
    weights over pair_x, bias last; the send model has the position column after pair_x; with a
    collaborative embedding (`cf`), both end in (cf_ab, cf_ba) and the TASTE_COLUMNS (when `cf` has
    tastes) before the bias), or None when too
    few distinct groups decided anything. `records`: each brand's packed record now."""
    import numpy as np

    impressions, actions = list(impressions), list(actions)
    group_of = groups(actions)
    shown = send_rows(impressions, actions)
    answers = answer_rows(actions)
    deciding = {group_of.get(r[2], r[2]) for r in answers}
    if len(deciding) < MIN_GROUPS:
        return None
    out: dict[str, Any] = {"version": MODEL_VERSION}
    edges = liking_edges(actions, group_of)
    halves = [{k: w for k, w in edges.items() if _fold(*k) != half} for half in (0, 1)]
    folds = [embed(h) for h in halves]
    full = embed(edges) if all(f is not None for f in folds) else None
    scale = 1.0
    codes = size_codes(records)
    fold_tastes: list[dict[str, Any] | None] = [None, None]
    if full is not None:
        sample = [(r[0], r[1]) for r in answers] or list(edges)
        scale = float(np.std(cf_columns(sample, folds, 1.0))) or 1.0
        full["taste"] = tastes(edges, codes, full["ids"])
        fold_tastes = [
            {"ids": f["ids"], "taste": tastes(h, codes, f["ids"])}  # type: ignore[index]
            for f, h in zip(folds, halves, strict=True)
        ]
        out["cf"] = pack_embedding(full, scale)

    fill: list[float] | None = None  # the send rows' (the cards shown), then the answers' reuse it

    def with_cf(x: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
        nonlocal fill
        if full is None:
            return x
        taste, fill = taste_pair_columns(pairs, fold_tastes, codes, fill)
        out["cf"]["fill"] = fill
        return np.hstack([x, cf_columns(pairs, folds, scale), taste])

    if shown:
        positions = [float(np.log1p(r[2])) for r in shown]
        x, kept = _rows([(r[0], r[1]) for r in shown], records, positions)
        rows = [shown[k] for k in kept]
        x = with_cf(x, [(r[0], r[1]) for r in rows])
        y = np.array([1.0 if r[5] else 0.0 for r in rows])
        ipw = np.minimum(1 / np.maximum(np.array([r[3] for r in rows], dtype=float), 1e-6), MAX_IPW)
        w = capped_weights([r[4] for r in rows], ipw, group_of)
        out["send"] = _fit(x, y, w)
    x, kept = _rows([(r[0], r[1]) for r in answers], records)
    rows = [answers[k] for k in kept]
    x = with_cf(x, [(r[0], r[1]) for r in rows])
    y = np.array([1.0 if r[3] else 0.0 for r in rows])
    w = capped_weights([r[2] for r in rows], np.array([r[4] for r in rows], dtype=float), group_of)
    out["accept"] = _fit(x, y, w)
    if out["accept"] is None:
        return None
    calibration, z_held = _calibration(x, y, w, rows, group_of)
    if calibration:
        out["calibration"] = calibration
        # Each answered request's chance by the half of the model that did not learn from it
        # (`held_out_labels`: what a label's promise is measured on); not stored with the model.
        chance = _calibrated(out, z_held)
        out["held_out"] = [
            [int(r[0]), int(r[1]), round(float(c), 4)]
            for r, c in zip(rows, chance.tolist(), strict=True)
            if r[5] in REQUEST_ANSWERS
        ]
    out["evidence"] = round(float(w.sum()), 1)
    out["groups"] = len(deciding)
    return out


# ---------------------------------------------------------------- the fresh prior

# P(a pair is a true mutual fit) from public profiles alone: a logistic regression over pair_x
# fitted offline on our own tuning world (tests/bench/fit_prior.py), stored beside this module.
# It ranks a fresh deployment and every brand the platform has no model for yet, blended with
# the rules' hand score (`fresh_scores`); the learned model's blend starts from it.
PRIOR_FILE = Path(__file__).with_name("prior_model.json")
PRIOR_VERSION = 1


@cache
def prior_model() -> dict[str, Any] | None:
    """The committed prior ({version, features, blend, weights, bias}), or None when it is
    missing or was fitted over other features (the rules alone then). Read once, on the first
    ranking (no import-time read: the API's cold start is unchanged)."""
    try:
        data = json.loads(PRIOR_FILE.read_text())
    except (OSError, ValueError):
        return None
    ok = (
        data.get("version") == PRIOR_VERSION
        and data.get("features") == N_FEATURES
        and len(data.get("weights") or ()) == N_FEATURES
    )
    return data if ok else None


def prior_score(
    me: bytes, cands: Packed, prior: Mapping[str, Any], x: np.ndarray | None = None
) -> np.ndarray:
    """The prior's P(mutual fit) of `me` with every candidate, the same from either side: the
    logit is the mean of the pair's two directions (a mutual fit is symmetric). `x`: pair_x of
    the same pairs when the caller has it."""
    import numpy as np

    x = pair_x(me, cands) if x is None else x
    w = np.asarray(prior["weights"], dtype=np.float64)
    swapped = np.zeros_like(w)
    swapped[_swap_index()] = w  # reverse(x) @ w == x @ swapped, without copying x
    # float32 like x (no float64 copy of it), and einsum rather than BLAS: a matrix-vector product
    # through a multi-threaded BLAS took 11 ms instead of 0.2 over 20,000 rows on a busy machine
    w_sym = (0.5 * (w + swapped)).astype(x.dtype)
    z = np.einsum("ij,j->i", x, w_sym).astype(np.float64) + float(prior["bias"])
    return _sigmoid(z).astype(np.float32)


def fresh_scores(rules: np.ndarray, prior: np.ndarray, blend: float) -> np.ndarray:
    """rules^(1-blend) x prior^blend: the rank value without a learned model (the rules' zeros,
    own account and exclusions, stay zero)."""
    import numpy as np

    if blend <= 0.0:
        return rules
    out = np.power(np.maximum(rules, 1e-6), 1 - blend) * np.power(np.maximum(prior, 1e-9), blend)
    return np.where(rules > 0, out, 0).astype(np.float32)


# ---------------------------------------------------------------- scoring

# effective answers at which the learned score weighs BLEND_MAX / 2 (chosen on ours, 2026-12-04)
BLEND_HALF = 250.0
BLEND_MAX = 0.9  # the rules always keep a say


def blend_weight(model: Mapping[str, Any] | None) -> float:
    """The learned score's share: 0 without a usable model, rising with its evidence."""
    if not usable(model):
        return 0.0
    evidence = float(model["evidence"])  # type: ignore[index]
    return BLEND_MAX * evidence / (evidence + BLEND_HALF)


def usable(model: Mapping[str, Any] | None) -> bool:
    return bool(model) and model.get("version") == MODEL_VERSION and bool(model.get("accept"))  # type: ignore[union-attr]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    import numpy as np

    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def _logits(me: bytes, cands: Packed, model: Mapping[str, Any], x: np.ndarray) -> Any:
    """The pair's logit function of `model` for `me` with every candidate: logit(weights, forward,
    cf_at) is a direction's logit, forward from `me`'s side (me sends, the candidate accepts), else
    from the candidate's (`x`: pair_x of the same pairs)."""
    import numpy as np

    ab = ba = np.zeros(len(x))
    taste = None  # the pairs' TASTE_COLUMNS from me's side, when the model has tastes
    if model.get("cf"):
        emb = unpack_embedding(model["cf"])
        mine = np.full(len(cands), int.from_bytes(me[:4], "little"), dtype=np.int64)
        theirs = np.asarray(cands.ids, dtype=np.int64)
        ab = _cf_of(emb, mine, theirs) / emb["scale"]
        ba = _cf_of(emb, theirs, mine) / emb["scale"]
        if "taste" in emb:
            me_packed = Packed.from_bytes([me])
            c_me = np.broadcast_to(np.array([me_packed.size[0], me_packed.audience[0]]), (len(cands), 2))
            taste = taste_columns(
                np.repeat(_taste_at(emb, mine[:1]), len(cands), axis=0),
                _taste_at(emb, theirs),
                c_me,
                np.stack([cands.size, cands.audience], axis=1),
                model["cf"].get("fill") or (0.0,) * TASTE_FIELDS,
            )

    def logit(w: np.ndarray, forward: bool, cf_at: int) -> np.ndarray:
        # reverse(x) @ w == x @ swapped (no reversed copy of x); einsum in x's float32 rather
        # than BLAS, as prior_score does (a threaded BLAS was 50x slower on a busy machine).
        weights = np.asarray(w[:N_FEATURES], dtype=np.float64)
        if not forward:
            swapped = np.zeros_like(weights)
            swapped[_swap_index()] = weights
            weights = swapped
        z = np.einsum("ij,j->i", x, weights.astype(x.dtype)).astype(np.float64) + w[-1]
        if model.get("cf"):  # (cf_ab, cf_ba) at cf_at, seen from the pair's own side
            z = z + (ab if forward else ba) * w[cf_at] + (ba if forward else ab) * w[cf_at + 1]
        if taste is not None:  # then the taste columns, from the pair's own side too
            cols = taste if forward else _taste_reverse(taste)
            z = z + cols @ np.asarray(w[cf_at + 2 : cf_at + 2 + TASTE_COLUMNS], dtype=np.float64)
        return z

    return logit


def learned_score(
    me: bytes, cands: Packed, model: Mapping[str, Any], x: np.ndarray | None = None
) -> np.ndarray:
    """sqrt(send(me, c) accept(me, c) send(c, me) accept(c, me)) for every candidate (`x`:
    pair_x of the same pairs when the caller has it)."""
    import numpy as np

    x = pair_x(me, cands) if x is None else x
    logit = _logits(me, cands, model, x)
    acc = np.asarray(model["accept"])
    both = _sigmoid(logit(acc, True, N_FEATURES)) * _sigmoid(logit(acc, False, N_FEATURES))
    if model.get("send"):
        send = np.asarray(model["send"])  # the position column (N_FEATURES) at 0: the top slot
        sends = _sigmoid(logit(send, True, N_FEATURES + 1)) * _sigmoid(logit(send, False, N_FEATURES + 1))
        both = both * sends
    return np.sqrt(both).astype(np.float32)


def rank_scores(
    me: bytes,
    cands: Packed,
    rules: np.ndarray,
    model: Mapping[str, Any] | None,
    prior: Mapping[str, Any] | None | bool = True,
) -> np.ndarray:
    """What a ranking orders by: the fresh rank value (the rules blended with the committed
    prior, `fresh_scores`; `prior=False` or no prior: the rules alone) without a usable model,
    else fresh^(1-w) x learned^w over every candidate the rules do not exclude (score 0 stays 0).
    `prior`: True for the committed one (prior_model), or a prior of the same form."""
    import numpy as np

    if not len(cands):
        return rules
    prior = prior_model() if prior is True else (prior or None)
    w = blend_weight(model)
    blend = float(prior["blend"]) if prior else 0.0
    if w == 0.0 and blend <= 0.0:
        return rules
    x = pair_x(me, cands)
    base = fresh_scores(rules, prior_score(me, cands, prior, x), blend) if blend > 0 else rules
    if w == 0.0:
        return base
    learned = learned_score(me, cands, model, x)  # type: ignore[arg-type]
    out = np.power(np.maximum(base, 1e-6), 1 - w) * np.power(np.maximum(learned, 1e-9), w)
    return np.where(rules > 0, out, 0).astype(np.float32)


# ---------------------------------------------------------------- what a label may promise next

FORECAST_SENDERS = 400  # the senders whose next lists a forecast ranks (a deterministic sample)


def accept_chance(
    me: bytes, cands: Packed, model: Mapping[str, Any], x: np.ndarray | None = None
) -> np.ndarray:
    """P(the candidate accepts `me`'s request) by the calibrated accept direction (`model`'s
    `calibration`; the direction's own sigmoid without one): a probability in the promise's own
    terms (an expiry is a request not accepted)."""
    x = pair_x(me, cands) if x is None else x
    return _calibrated(model, _logits(me, cands, model, x)(model["accept"], True, N_FEATURES))


def _calibrated(model: Mapping[str, Any], z: np.ndarray) -> np.ndarray:
    """The accept direction's logits `z` as probabilities: `model`'s calibration (from
    `_calibration`), else the sigmoid."""
    import numpy as np

    found = model.get("calibration")
    if not found:
        return _sigmoid(z)
    return np.interp(z, np.asarray(found["z"], dtype=np.float64), np.asarray(found["p"], dtype=np.float64))


def chance_values(me: bytes, cands: Packed, model: Mapping[str, Any]) -> list[int]:
    """Each candidate's calibrated chance of accepting `me`'s request (`accept_chance`) as the
    whole percent its fit label goes by (brand_profile.chance_percent)."""
    if not len(cands):
        return []
    return [brand_profile.chance_percent(c) for c in accept_chance(me, cands, model).tolist()]


def label_plan(
    model: Mapping[str, Any] | None,
    cands: Packed,
    senders: Iterable[bytes],
    kept: int,
    actions: Iterable[Action] = (),
) -> tuple[dict[str, int], dict[str, float]]:
    """The fit labels' chance thresholds once lists are ranked by the calibrated `model`, and what
    share of the requests members send to each label's cards it expects accepted. Each sender
    (packed records; at most FORECAST_SENDERS, a deterministic sample) is ranked against `cands`
    as a run ranks: the rules blended with the prior and `model`, best `kept`, leaving out the
    brands it already sent to, dismissed or blocked in `actions` (a list moves on from the
    partners it already asked). The thresholds are brand_profile.chance_thresholds of those cards'
    `chance_values` against the typical request's (the mean chance of acceptance over the cards,
    each weighed by its chance of being sent, below); each list is then labelled
    as a run labels it (the top label capped per list, brand_profile.capped_thresholds), and each
    card weighs its chance of being sent at its position (the send direction; equal without one)
    times its calibrated chance of acceptance. ({label: lowest chance percent}, {label: share}
    for the labels some card carries); ({}, {}) without a usable model. A label then sorts cards by
    what our data says of them (a "Great fit" is likelier to accept than a "Good fit"), and its
    promise says what the lists it is printed on will do, not what the last lists did."""
    import numpy as np

    if not usable(model):
        return {}, {}
    assert model is not None
    chosen = sorted(set(senders), key=lambda r: (zlib.crc32(r), r))[:FORECAST_SENDERS]  # stable, unsalted
    done: dict[int, set[int]] = defaultdict(set)
    for a in actions:
        if a.kind in (SEND, DISMISS, BLOCK):
            done[a.actor].add(a.target)
    send = np.asarray(model["send"]) if model.get("send") else None
    lists: list[tuple[list[int], np.ndarray, np.ndarray]] = []  # (chance percents, chances, weights)
    for me in chosen:
        rules = score_packed(me, cands, done.get(int.from_bytes(me[:4], "little"), ())).score
        top = top_positions(rank_scores(me, cands, rules, model), kept)
        if not len(top):
            continue
        sub = Packed(cands.records[top])
        logit = _logits(me, sub, model, pair_x(me, sub))
        chance = _calibrated(model, logit(np.asarray(model["accept"]), True, N_FEATURES))
        if send is not None:
            z = logit(send, True, N_FEATURES + 1)
            weight = _sigmoid(z + float(send[N_FEATURES]) * np.log1p(np.arange(len(top))))
        else:
            weight = np.ones(len(top))
        lists.append(([brand_profile.chance_percent(c) for c in chance.tolist()], chance, weight))
    if not lists:
        return {}, {}
    typical = sum(float(w @ c) for _, c, w in lists) / max(sum(float(w.sum()) for _, _, w in lists), 1e-9)
    thresholds = brand_profile.chance_thresholds((v for values, _, _ in lists for v in values), typical)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for values, chance, weight in lists:
        at = brand_profile.capped_thresholds(values, thresholds)
        for k, value in enumerate(values):
            found = sums[brand_profile.fit_label(value, at)]
            found[0] += float(weight[k] * chance[k])
            found[1] += float(weight[k])
    return thresholds, {label: yes / total for label, (yes, total) in sums.items() if total > 0}


def held_out_labels(
    held_out: Iterable[list], thresholds: Mapping[str, int], pairs: list[tuple[int, int]]
) -> list[str]:
    """The fit label of each request (sender id, recipient id) by its chance of acceptance as the
    half of the model that did not learn from it saw it (`train`'s `held_out`: the calibrated
    cross-fitted accept direction) and the chance `thresholds` (`label_plan`'s): a label promises
    what the requests its cards would now carry got, judged by a model that had not seen their
    answers (the full model knows them: requests it labels "Great fit" are the ones it learned
    were accepted). "" for a request it has no held-out chance for, and for all without
    thresholds (no plan): nothing is promised from them."""
    at = brand_profile.valid_thresholds(thresholds)
    found = {(int(a), int(b)): float(c) for a, b, c in held_out}
    out = []
    for pair in pairs:
        chance = found.get((int(pair[0]), int(pair[1])))
        out.append(
            ""
            if at is None or chance is None
            else brand_profile.fit_label(brand_profile.chance_percent(chance), at)
        )
    return out
