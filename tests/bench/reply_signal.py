"""The reply-time signal in matching, measured on the synthetic population of
tests/bench/matching.py given a hidden reply propensity (issue 28).

Each brand gets a hidden probability of answering a request within 14 days (a third rarely
answer: 0.05-0.3; the rest mostly do: 0.6-0.95) and a history drawn from it (0-12 ended
requests received in the last 90 days; the observed answer rate is None under 3, as the label
rule says). For a sample of members, their top 10 by the reciprocal score is taken with and
without `tandem.domain.matching.reply.reply_factor` applied to every candidate's score.

Prints `BENCH answered_within_14d_share` (the expected share of the requests that top 10
would lead members to send that are answered within 14 days: the mean hidden propensity of the
top 10) without and with the signal, and `BENCH match_reciprocal_precision_at_10` the same two
ways (true mutual fits in the top 10), then the same for a few weights.
Run: `.venv/bin/python tests/bench/reply_signal.py`.
"""

from __future__ import annotations

import random
import statistics
import sys

import _setup  # noqa: I001 (sets sys.path first; see tests/bench/_setup.py)

_setup.moto_environment("ERROR")

import importlib.util  # noqa: E402

# The population of tests/bench/matching.py (this folder is off sys.path: see _setup.py).
_spec = importlib.util.spec_from_file_location("bench_matching", _setup.HERE / "matching.py")
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
_accepts, _world = _bench._accepts, _bench._world

from tandem.domain import matching  # noqa: E402
from tandem.domain.matching.reply import REPLY_WEIGHT, reply_factor  # noqa: E402
from tandem.domain.reply_time import MIN_RECEIVED  # noqa: E402


def _propensities(rng: random.Random, ids: list[int]) -> tuple[dict[int, float], dict[int, float | None]]:
    hidden, observed = {}, {}
    for brand_id in ids:
        p = rng.uniform(0.05, 0.3) if rng.random() < 1 / 3 else rng.uniform(0.6, 0.95)
        received = rng.randint(0, 12)
        answered = sum(rng.random() < p for _ in range(received))
        hidden[brand_id] = p
        observed[brand_id] = answered / received if received >= MIN_RECEIVED else None
    return hidden, observed


def measure(weights: list[float], count: int = 4000, sample: int = 300) -> dict[float, tuple[float, float]]:
    """{weight: (answered within 14 days share, reciprocal precision at 10)}; weight 0 is
    the ranking without the signal."""
    import numpy as np

    rng = random.Random(3)
    truth, observed = _world(rng, count)
    cands = matching.Packed.from_bytes(matching.pack(p) for p in observed)
    ids = [int(i) for i in cands.ids]
    hidden, rates = _propensities(random.Random(28), ids)
    by_id = {p.brand_id: p for p in truth}
    members = rng.sample(observed, sample)
    out = {}
    for weight in weights:
        factors = np.array([reply_factor(rates[i], weight) for i in ids])
        answered, precision = [], []
        for me in members:
            scores = matching.score_packed(matching.pack(me), cands).score * factors
            top = [ids[p] for p in matching.top_positions(scores, 10)]
            answered.append(statistics.mean(hidden[i] for i in top))
            a = by_id[me.brand_id]
            precision.append(sum(_accepts(a, by_id[i]) and _accepts(by_id[i], a) for i in top) / 10)
        out[weight] = (statistics.mean(answered), statistics.mean(precision))
    return out


def main() -> None:
    weights = [0.0, 0.1, REPLY_WEIGHT, 0.25, 0.4]
    figures = measure(sorted(set(weights)))
    (base_answered, base_precision), (answered, precision) = figures[0.0], figures[REPLY_WEIGHT]
    print(f"BENCH answered_within_14d_share {base_answered:.3f}  # without the signal")
    print(f"BENCH answered_within_14d_share {answered:.3f}  # with it (weight {REPLY_WEIGHT})")
    print(f"BENCH match_reciprocal_precision_at_10 {base_precision:.3f}  # without the signal")
    print(f"BENCH match_reciprocal_precision_at_10 {precision:.3f}  # with it")
    for weight, (a, p) in sorted(figures.items()):
        print(f"# weight {weight:.2f}: answered {a:.3f}, precision@10 {p:.3f}", file=sys.stderr)
    if answered - base_answered < 0.10 or base_precision - precision > 0.02:
        raise SystemExit("the signal misses its target: +10 points answered, at most -2 points precision")


if __name__ == "__main__":
    main()
