"""Fit the fresh prior (issue 37, h50-37): P(a pair is a true mutual fit) from public profiles
alone, a logistic regression over training.pair_x, fitted on the TUNING world only
(tests.bench.worlds.ours) and committed as tandem/domain/matching/prior_model.json.

- Training: FIT_SEEDS x NOISES worlds of N brands; for QUERIES sampled brands of each, every true
  mutual fit and NEGATIVES of the rest (weighted back by 1 / NEGATIVES), pair_x from the sampled
  brand's side. No behaviour: a fresh deployment has none.
- Choice (on ours, a seed not fitted on, CHOICE_SEED, the three noises): the L2 penalty and the
  blend exponent `a` of rules^(1-a) x prior^a (the rank value of a brand with no history) that
  give the best mean p@10 of the top 10 by that value (the rules' zeros stay excluded).
- The report worlds (interests, geo_size) are never read here.

Run: `nice -n 19 .venv/bin/python tests/bench/fit_prior.py [--write]` (about 2-3 minutes at
N=1,000; --write stores the chosen model).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

import numpy as np  # noqa: E402

from tandem.domain.matching import learned, training  # noqa: E402
from tests.bench import platform_sim  # noqa: E402

WORLD = "tests.bench.worlds.ours:factory"
FIT_SEEDS = (101, 102, 103)
CHOICE_SEED = 104
NOISES = (0.0, 0.2, 0.4)
N = 1000
QUERIES = 300
NEGATIVES = 0.03
L2S = (1.0, 10.0, 100.0)
BLENDS = (0.0, 0.25, 0.5, 0.75, 1.0)
K = 10


def rows(p: platform_sim.Platform, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, ws = [], [], []
    for a in rng.choice(p.n, size=min(QUERIES, p.n), replace=False):
        truth = p.mutual[a].copy()
        truth[a] = False
        keep = truth | (rng.random(p.n) < NEGATIVES)
        keep[a] = False
        xs.append(training.pair_x(p.records[a], p.cands)[keep])
        ys.append(truth[keep].astype(np.float64))
        ws.append(np.where(truth[keep], 1.0, 1 / NEGATIVES))
    return np.vstack(xs), np.concatenate(ys), np.concatenate(ws)


def p_at_10(p: platform_sim.Platform, sample: np.ndarray, score_of) -> float:
    out = []
    for a in sample.tolist():
        s = score_of(a).astype(np.float64)
        s[a] = 0
        top = [int(i) for i in np.lexsort((np.arange(p.n), -s))[:K] if s[i] > 0]
        out.append(float(np.mean([p.mutual[a, i] for i in top])) if top else 0.0)
    return float(np.mean(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the chosen model in the layer")
    args = parser.parse_args()
    t0 = time.time()
    rng = np.random.default_rng(5)
    parts = []
    for noise in NOISES:
        for seed in FIT_SEEDS:
            parts.append(rows(platform_sim.build(WORLD, seed, N, noise), rng))
    x = np.vstack([q[0] for q in parts]).astype(np.float64)
    y = np.concatenate([q[1] for q in parts])
    w = np.concatenate([q[2] for q in parts])
    print(f"fitted on {len(x)} rows ({int(y.sum())} true fits), {time.time() - t0:.0f} s", flush=True)
    fits = {l2: learned.fit_logistic(x, y, w, l2=l2, rounds=40) for l2 in L2S}
    choice = {noise: platform_sim.build(WORLD, CHOICE_SEED, N, noise) for noise in NOISES}
    sample = np.random.default_rng(CHOICE_SEED).choice(N, size=QUERIES, replace=False)
    results: dict[tuple[float, float], list[float]] = {}
    for noise, p in choice.items():
        rules = {int(a): training.score_packed(p.records[a], p.cands).score for a in sample.tolist()}
        for l2, coef in fits.items():
            model = {"weights": [float(v) for v in coef[:-1]], "bias": float(coef[-1])}
            prior = {a: training.prior_score(p.records[a], p.cands, model) for a in rules}
            for blend in BLENDS:

                def score_of(a: int, blend: float = blend, r: dict = rules, q: dict = prior) -> np.ndarray:
                    return training.fresh_scores(r[a], q[a], blend)

                value = p_at_10(p, sample, score_of)
                results.setdefault((l2, blend), []).append(value)
        print(f"  choice world noise {noise:.0%} scored, {time.time() - t0:.0f} s", flush=True)
    print("  L2 | blend | p@10 at " + " / ".join(f"{n:.0%}" for n in NOISES) + " | mean")
    for (l2, blend), values in sorted(results.items()):
        print(
            f"  {l2:g} | {blend:.2f} | "
            + " / ".join(f"{v:.3f}" for v in values)
            + f" | {np.mean(values):.3f}"
        )
    (l2, blend), values = max(results.items(), key=lambda kv: (round(float(np.mean(kv[1])), 4), -kv[0][1]))
    print(
        f"chosen on ours (seed {CHOICE_SEED}): L2 {l2:g}, blend {blend:.2f}, p@10 "
        + " / ".join(f"{v:.3f}" for v in values)
    )
    coef = fits[l2]
    out = {
        "version": training.PRIOR_VERSION,
        "features": training.N_FEATURES,
        "blend": blend,
        "weights": [round(float(v), 5) for v in coef[:-1]],
        "bias": round(float(coef[-1]), 5),
        "fitted_on": (
            f"{WORLD} seeds {list(FIT_SEEDS)} x noise {list(NOISES)}, {N} brands, {QUERIES} brands each "
            f"(every true fit, {NEGATIVES:.0%} of the rest); L2 {l2:g} and blend chosen on seed "
            f"{CHOICE_SEED} "
            "(tests/bench/fit_prior.py)"
        ),
    }
    if args.write:
        training.PRIOR_FILE.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {training.PRIOR_FILE}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
