"""Matching on a world it was not built for (tests/bench/eval_world.py; issue 30).

For each noise level (0%, 20%, 40% of profile fields left empty or wrong) and seed (3), a world
of 5,000 brands; a sample of brands is ranked against all the others by:
- production: the calls a match run makes (`_top_entries` then `_choose`: scores, reasons,
  diversification), its first 10;
- no-diversify: the same scores in score order;
- one-sided: `score_packed(one_sided=True)`;
- learned: a logistic regression on the same public fields (the pair features of
  domain/matching/learned.py and the pair of categories), fitted on ANOTHER world's seed;
- random.
Reports p@10 (share of the top 10 that are true mutual fits), NDCG@10 and paired bootstrap
95% intervals over brands, and prints:
- `BENCH match_heldout_p_at_10`: production p@10 at 20% noise (mean over seeds);
- `BENCH match_heldout_vs_one_sided`: production / one-sided p@10, the LOWEST over noise levels;
- `BENCH match_heldout_vs_learned`: production / learned p@10, the LOWEST over noise levels.
Learning from a history is measured by tests/bench/platform_sim.py (issue 37), which replays
what members would do rather than labelling every card with the truth.

Run: `.venv/bin/python tests/bench/matching_heldout.py` (BENCH_QUICK=1: 2,000 brands, fewer
queries). Fails loudly when the world is degenerate (no true fits, or everything fits).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

import numpy as np  # noqa: E402

from tandem.domain import brand_profile, matching  # noqa: E402
from tandem.domain.matching import learned  # noqa: E402
from tandem.services import match_runs  # noqa: E402
from tests.bench import eval_world  # noqa: E402

NOISES = (0.0, 0.2, 0.4)
SEEDS = (11, 12, 13)
TRAIN_SEED_OFFSET = 1000
RANKERS = ("production", "no-diversify", "one-sided", "learned", "random")
K = 10


def _cat_pairs(me: bytes, cands: matching.Packed) -> np.ndarray:
    mine = int(np.frombuffer(me, dtype=matching.record_dtype())[0]["cat"])
    n_cat = len(matching.CATEGORIES) + 1
    low = np.minimum(cands.cat.clip(0, n_cat - 1), min(mine, n_cat - 1))
    high = np.maximum(cands.cat.clip(0, n_cat - 1), min(mine, n_cat - 1))
    out = np.zeros((len(cands), n_cat * n_cat), dtype=np.float32)
    out[np.arange(len(cands)), low * n_cat + high] = 1
    return out


def baseline_features(me: bytes, cands: matching.Packed) -> np.ndarray:
    return np.hstack([learned.pair_features(me, cands), _cat_pairs(me, cands)])


def packed_world(world: eval_world.World) -> tuple[list[bytes], matching.Packed]:
    records = [matching.pack(p) for p in world.observed]
    return records, matching.Packed.from_bytes(records)


def fit_baseline(seed: int, n: int, noise: float, queries: int) -> np.ndarray:
    """The learned baseline, fitted on another world (all true fits, 3% of the rest, weighted)."""
    world = eval_world.build(seed, n, noise)
    records, cands = packed_world(world)
    rng = np.random.default_rng(seed)
    xs, ys, ws = [], [], []
    for a in rng.choice(n, size=queries, replace=False):
        truth = world.mutual(int(a))
        keep = truth | (rng.random(n) < 0.03)
        keep[a] = False
        xs.append(baseline_features(records[a], cands)[keep])
        ys.append(truth[keep].astype(np.float64))
        ws.append(np.where(truth[keep], 1.0, 1 / 0.03))
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    if y.sum() < 20:
        raise RuntimeError(f"bench setup wrong: the training world has only {int(y.sum())} true fits")
    return learned.fit_logistic(x, y, w, l2=10.0)


def _top(scores: np.ndarray, ids: np.ndarray) -> list[int]:
    return [int(ids[p]) for p in matching.top_positions(scores, K)]


def rankings(me: bytes, cands: matching.Packed, model: np.ndarray, rng: np.random.Generator) -> dict:
    top = match_runs._top_entries(me, cands, excluded=[], saved=[])["top"]
    chosen, _ = match_runs._choose(matching.unpack(me), top, set())
    shown = {s.candidate_id: brand_profile.score_percent(s.score) for s in chosen[:K]}
    scores = matching.score_packed(me, cands)
    one = matching.score_packed(me, cands, one_sided=True).score
    blocked = scores.score <= 0
    prob = 1 / (1 + np.exp(-np.clip(baseline_features(me, cands) @ model[:-1] + model[-1], -30, 30)))
    prob[blocked] = 0
    allowed = np.flatnonzero(~blocked)
    return {
        "production": list(shown),
        "shown": shown,
        "no-diversify": _top(scores.score, cands.ids),
        "one-sided": _top(np.where(blocked, 0, one), cands.ids),
        "learned": _top(prob.astype(np.float32) + 1e-9 * (~blocked), cands.ids),
        "random": [int(cands.ids[p]) for p in rng.choice(allowed, size=K, replace=False)],
    }


def p_at_k(picks: list[int], truth: np.ndarray) -> float:
    return sum(bool(truth[i - 1]) for i in picks) / K


def ndcg_at_k(picks: list[int], truth: np.ndarray) -> float:
    gains = [1 / np.log2(r + 2) for r, i in enumerate(picks) if truth[i - 1]]
    ideal = sum(1 / np.log2(r + 2) for r in range(min(K, int(truth.sum()))))
    return float(sum(gains) / ideal) if ideal else 0.0


@dataclass
class Results:
    p: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RANKERS})
    ndcg: dict[str, list[float]] = field(default_factory=lambda: {r: [] for r in RANKERS})
    base_rate: list[float] = field(default_factory=list)
    extra: dict[str, list[float]] = field(default_factory=dict)
    picks: list[tuple[int, bool]] = field(default_factory=list)  # (percent shown, true fit)

    def add_extra(self, name: str, value: float) -> None:
        self.extra.setdefault(name, []).append(value)


def evaluate(world: eval_world.World, model: np.ndarray, queries: int, seed: int, into: Results) -> None:
    records, cands = packed_world(world)
    rng = np.random.default_rng(seed + 7)
    incomplete = np.array([_incomplete(p) for p in world.observed])
    for a in rng.choice(world.n, size=queries, replace=False):
        truth = world.mutual(int(a))
        truth[a] = False
        into.base_rate.append(truth.sum() / (world.n - 1))
        lists = rankings(records[a], cands, model, rng)
        into.picks += [(percent, bool(truth[i - 1])) for i, percent in lists.pop("shown").items()]
        for name, picks in lists.items():
            into.p[name].append(p_at_k(picks, truth))
            into.ndcg[name].append(ndcg_at_k(picks, truth))
        prod = np.array(lists["production"]) - 1
        into.add_extra("incomplete_share_of_picks", float(incomplete[prod].mean()) if len(prod) else 0.0)
        if truth.any():
            into.add_extra("incomplete_share_of_fits", float(incomplete[truth].mean()))
        same = [world.observed[i].category == world.observed[a].category for i in prod]
        into.add_extra("same_category_picks", float(np.mean(same)) if same else 0.0)
        if truth.any():
            into.add_extra("same_category_share_of_fits", float((world.cat[truth] == world.cat[a]).mean()))
        # Picks that are true competitors (same category and niche, tier at most one step away).
        rival = (world.cat[prod] == world.cat[a]) & (world.niche[prod] == world.niche[a])
        rival &= np.abs(world.tier[prod] - world.tier[a]) <= 1
        into.add_extra("competitor_picks", float(rival.mean()) if len(prod) else 0.0)
        into.add_extra("categories_in_top10", float(len({world.observed[i].category for i in prod})))


def _incomplete(p: matching.Profile) -> bool:
    return not (p.countries and p.age_bands and p.genders and p.collab_kinds and p.values and p.company_size)


def label_check(picks: list[tuple[int, bool]]) -> str:
    """What each fit label's picks turned out to be: the share of true mutual fits."""
    parts = []
    for label in ("Great fit", "Good fit", "Worth a look"):
        hits = [fit for percent, fit in picks if brand_profile.fit_label(percent) == label]
        share = f"{np.mean(hits):.0%} true fits" if hits else "none"
        parts.append(f"{label}: {len(hits) / max(len(picks), 1):.0%} of picks, {share}")
    return "; ".join(parts)


def calibration(picks: list[tuple[int, bool]]) -> str:
    """Share of true fits among picks shown at or above each percent."""
    rows = []
    for t in range(20, 100, 5):
        hits = [fit for percent, fit in picks if percent >= t]
        if hits:
            rows.append(f"{t}%+: {np.mean(hits):.2f} of {len(hits)}")
    return ", ".join(rows)


def paired_interval(a: list[float], b: list[float], rng: np.random.Generator, ratio: bool) -> tuple:
    """Bootstrap over brands (paired): 95% interval of mean(a) - mean(b), or mean(a) / mean(b)."""
    x, y = np.asarray(a), np.asarray(b)
    idx = rng.integers(0, len(x), size=(1000, len(x)))
    xs, ys = x[idx].mean(axis=1), y[idx].mean(axis=1)
    stat = xs / np.maximum(ys, 1e-9) if ratio else xs - ys
    point = x.mean() / max(y.mean(), 1e-9) if ratio else x.mean() - y.mean()
    return point, float(np.percentile(stat, 2.5)), float(np.percentile(stat, 97.5))


def main() -> None:
    quick = bool(os.environ.get("BENCH_QUICK"))
    n = 2_000 if quick else 5_000
    queries = 60 if quick else 200
    rng = np.random.default_rng(0)
    summary: dict[float, Results] = {}
    for noise in NOISES:
        model = fit_baseline(SEEDS[0] + TRAIN_SEED_OFFSET, n, noise, queries)
        results = Results()
        for seed in SEEDS:
            evaluate(eval_world.build(seed, n, noise), model, queries, seed, results)
        summary[noise] = results
        base = float(np.mean(results.base_rate))
        if base <= 0 or base > 0.2:
            raise RuntimeError(f"bench setup wrong: base rate {base:.4f} at noise {noise}")
        print(
            f"noise {noise:.0%}: {n} brands x {len(SEEDS)} seeds, {queries} ranked each; base rate {base:.2%}"
        )
        for name in RANKERS:
            p, nd = np.mean(results.p[name]), np.mean(results.ndcg[name])
            print(f"  {name:13s} p@10 {p:.3f}  NDCG@10 {nd:.3f}")
        for name in ("no-diversify", "one-sided", "learned"):
            d, lo, hi = paired_interval(results.p["production"], results.p[name], rng, ratio=False)
            print(f"  production - {name}: p@10 {d:+.3f} (95% {lo:+.3f} .. {hi:+.3f})")
        for name, values in results.extra.items():
            print(f"  {name} {np.mean(values):.3f}")
        print("  " + label_check(results.picks))
    ratios_one = []
    ratios_learned = []
    for noise, results in summary.items():
        ratios_one.append(paired_interval(results.p["production"], results.p["one-sided"], rng, True))
        ratios_learned.append(paired_interval(results.p["production"], results.p["learned"], rng, True))
        print(
            f"noise {noise:.0%}: production/one-sided {ratios_one[-1][0]:.2f} "
            f"(95% {ratios_one[-1][1]:.2f}..{ratios_one[-1][2]:.2f}), production/learned "
            f"{ratios_learned[-1][0]:.2f} (95% {ratios_learned[-1][1]:.2f}..{ratios_learned[-1][2]:.2f})"
        )
    print(f"BENCH match_heldout_p_at_10 {np.mean(summary[0.2].p['production']):.3f}")
    print(f"BENCH match_heldout_vs_one_sided {min(r[0] for r in ratios_one):.2f}")
    print(f"BENCH match_heldout_vs_learned {min(r[0] for r in ratios_learned):.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
