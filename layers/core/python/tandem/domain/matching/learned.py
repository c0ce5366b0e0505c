"""A learned model of "will this pair accept": the pair's features from the packed form, a
logistic regression fitted with numpy, and its score (pure: no I/O).

Features are read from public profile fields only, both directions, so the same function gives
a request's features when it is sent (recorded with the request) and every candidate's in a
match run. numpy is imported inside the functions (the API must not pay for it on a cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tandem.domain.matching.packed import SIZE_MASK, _tables, audience_code, record_dtype

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from tandem.domain.matching.packed import Packed

FEATURES = (
    "countries_ab",
    "countries_ba",
    "ages_ab",
    "ages_ba",
    "genders_ab",
    "genders_ba",
    "kinds_ab",
    "kinds_ba",
    "values_ab",
    "values_ba",
    "unknown_countries",
    "unknown_ages",
    "unknown_genders",
    "unknown_kinds",
    "unknown_values",
    "same_category",
    "category_complement",
    "size_up",
    "size_down",
    "unknown_size",
    "audience_up",
    "audience_down",
    "unknown_audience",
)


def pair_features(me: bytes, cands: Packed) -> np.ndarray:
    """One row of FEATURES per candidate (float32), for `me` (a packed record)."""
    import numpy as np

    mine = np.frombuffer(me, dtype=record_dtype())[0]
    count = np.bitwise_count
    f32 = np.float32
    n = len(cands)
    out = np.zeros((n, len(FEATURES)), dtype=f32)

    def field(col: int, shared: np.ndarray, n_mine: int, n_theirs: np.ndarray) -> None:
        known = (n_theirs > 0) & (n_mine > 0)
        out[:, col] = np.where(known, shared / max(n_mine, 1), 0)
        out[:, col + 1] = np.where(known, shared / np.maximum(n_theirs, 1), 0)
        out[:, 10 + col // 2] = ~known

    my_countries = mine["countries"].astype(np.uint64)
    shared = count(cands.countries & my_countries).sum(axis=1).astype(f32)
    field(0, shared, int(count(my_countries).sum()), cands.n_countries)
    for col, name, n_theirs in (
        (2, "ages", cands.n_ages),
        (4, "genders", cands.n_genders),
        (6, "kinds", cands.n_kinds),
        (8, "values", cands.n_values),
    ):
        mask = np.uint64(int(mine[name]))
        column = getattr(cands, name)
        field(col, count(column & mask).astype(f32), int(count(mask)), n_theirs)
    my_cat = int(mine["cat"])
    out[:, 15] = (cands.cat == my_cat) & (my_cat != 0)
    out[:, 16] = _tables()[0][my_cat, cands.cat]
    for col, mine_code, theirs in (
        (17, int(mine["size"]) & SIZE_MASK, cands.size),
        (20, _audience(mine), cands.audience),
    ):
        known = (theirs > 0) & (mine_code > 0)
        step = np.where(known, theirs.astype(f32) - mine_code, 0)
        out[:, col] = np.maximum(step, 0)
        out[:, col + 1] = np.maximum(-step, 0)
        out[:, col + 2] = ~known
    return out


def _audience(record: Any) -> int:
    return audience_code(int(record["flags"]))


def fit_logistic(
    x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None, l2: float = 1.0, rounds: int = 25
) -> np.ndarray:
    """Weights (bias last) of a logistic regression, by Newton's method with an L2 penalty."""
    import numpy as np

    xb = np.hstack([x.astype(np.float64), np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    sample = np.ones(len(x)) if weight is None else weight.astype(np.float64)
    penalty = np.full(xb.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(rounds):
        p = 1 / (1 + np.exp(-np.clip(xb @ w, -30, 30)))
        grad = xb.T @ (sample * (p - y)) + penalty * w
        hess = (xb * (sample * p * (1 - p))[:, None]).T @ xb + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w
