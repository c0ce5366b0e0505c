"""The reply-time signal in matching, measured on the synthetic population of
tests/bench/matching.py given a hidden reply propensity (issue 28).

Each brand gets a hidden probability of answering a request within 14 days (a third rarely
answer: 0.05-0.3; the rest mostly do: 0.6-0.95) and a history drawn from it (0-12 ended
requests received in the last 90 days; the observed answer rate is None under 3, as the label
rule says), folded into its reply tier (`reply_tier`, as the match index's rows keep it). For
a sample of members, their top 10 is taken as a match run chooses it (`match_runs._top_entries`
and `_choose`, diversity included) without and with the tiers' factors (`tier_factor`).

Prints `BENCH answered_within_14d_share` (the expected share of the requests that top 10
would lead members to send that are answered within 14 days: the mean hidden propensity of the
top 10) without and with the signal, and `BENCH match_reciprocal_precision_at_10` the same two
ways (true mutual fits in the top 10); then, on stderr, plain top 10s (no diversity) with the
tiers at a few weights.
Run: `.venv/bin/python tests/bench/reply_signal.py`.
"""

from __future__ import annotations

import random
import statistics
import sys

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

import importlib.util  # noqa: E402

# The population of tests/bench/matching.py (this folder is off sys.path: see _setup.py).
_spec = importlib.util.spec_from_file_location("bench_matching", _setup.HERE / "matching.py")
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
_accepts, _world = _bench._accepts, _bench._world

from tandem.domain import matching  # noqa: E402
from tandem.domain.matching.reply import REPLY_WEIGHT, reply_tier, tier_factor  # noqa: E402
from tandem.domain.reply_time import MIN_RECEIVED  # noqa: E402


def _propensities(
    rng: random.Random, ids: list[int]
) -> tuple[dict[int, float], dict[int, float | None], dict[int, int]]:
    hidden, observed, tiers = {}, {}, {}
    for brand_id in ids:
        p = rng.uniform(0.05, 0.3) if rng.random() < 1 / 3 else rng.uniform(0.6, 0.95)
        received = rng.randint(0, 12)
        answered = sum(rng.random() < p for _ in range(received))
        hidden[brand_id] = p
        observed[brand_id] = answered / received if received >= MIN_RECEIVED else None
        tiers[brand_id] = reply_tier(received, answered)
    return hidden, observed, tiers


def _shares(members: list, top10, hidden: dict, by_id: dict) -> tuple[float, float]:
    """(mean hidden answer propensity, reciprocal precision) of each member's top 10."""
    answered, precision = [], []
    for me in members:
        top = top10(me)
        answered.append(statistics.mean(hidden[i] for i in top))
        a = by_id[me.brand_id]
        precision.append(sum(_accepts(a, by_id[i]) and _accepts(by_id[i], a) for i in top) / 10)
    return statistics.mean(answered), statistics.mean(precision)


def measure(
    weights: list[float], count: int = 4000, sample: int = 300
) -> tuple[dict[str, tuple[float, float]], dict[float, tuple[float, float]]]:
    """(the app's ranking without and with the signal: {"without"|"with": (answered within 14
    days share, reciprocal precision at 10)}, and {weight: the same} for plain top 10s by the
    score times the tiers' factors at other weights).

    The app's ranking is a match run's: `match_runs._top_entries` with each candidate's reply
    tier (as `match_index.load_ranked` reads it from the rows), then `_choose` (diversity)."""
    import numpy as np

    from tandem.services import match_runs

    rng = random.Random(3)
    truth, observed = _world(rng, count)
    cands = matching.Packed.from_bytes(matching.pack(p) for p in observed)
    ids = [int(i) for i in cands.ids]
    hidden, _, tiers = _propensities(random.Random(28), ids)
    column = np.array([tiers[i] for i in ids], dtype=np.uint8)
    by_id = {p.brand_id: p for p in truth}
    members = rng.sample(observed, sample)

    def run_top10(me: matching.Profile, with_tiers: bool) -> list[int]:
        top = match_runs._top_entries(matching.pack(me), cands, [], [], column if with_tiers else None)
        return [s.candidate_id for s in match_runs._choose(me, top["top"], set())[0][:10]]

    app = {
        "without": _shares(members, lambda me: run_top10(me, False), hidden, by_id),
        "with": _shares(members, lambda me: run_top10(me, True), hidden, by_id),
    }
    grid = {}
    for weight in weights:
        factors = np.array([tier_factor(t, weight) for t in range(4)], dtype=np.float32)[column]

        def plain_top10(me: matching.Profile, factors: np.ndarray = factors) -> list[int]:
            scores = matching.score_packed(matching.pack(me), cands).score * factors
            return [ids[p] for p in matching.top_positions(scores, 10)]

        grid[weight] = _shares(members, plain_top10, hidden, by_id)
    return app, grid


def main() -> None:
    app, grid = measure([0.0, 0.08, 0.1, REPLY_WEIGHT, 0.14, 0.18, 0.25])
    (base_answered, base_precision), (answered, precision) = app["without"], app["with"]
    print(f"BENCH answered_within_14d_share {base_answered:.3f}  # without the signal")
    print(f"BENCH answered_within_14d_share {answered:.3f}  # with it (weight {REPLY_WEIGHT}, reply tiers)")
    print(f"BENCH match_reciprocal_precision_at_10 {base_precision:.3f}  # without the signal")
    print(f"BENCH match_reciprocal_precision_at_10 {precision:.3f}  # with it")
    for weight, (a, p) in grid.items():
        print(
            f"# plain top 10, tiers at weight {weight:.2f}: answered {a:.3f}, precision@10 {p:.3f}",
            file=sys.stderr,
        )
    if answered - base_answered < 0.10 or base_precision - precision > 0.02:
        raise SystemExit("the signal misses its target: +10 points answered, at most -2 points precision")


if __name__ == "__main__":
    main()
