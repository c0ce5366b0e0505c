"""Matching benchmarks (print BENCH lines; no assertions).

- `BENCH match_one_vs_100k_s`: one brand against 100,000 synthetic candidates, in process:
  decode the packed shards, score every candidate, take the best, word the reasons and
  diversify (what one ScoreBatch + Finalize do, without DynamoDB). Median of several runs.
  Target: at most 0.5 s.
- `BENCH match_run_ddb_calls`: DynamoDB calls of one complete on-demand match run (start to
  'done', through the state machine) for a 10,000-brand dataset in moto: the run alone (the
  new-matches notifier is another function, counted in notify_fanout), with a stored learned
  model to blend (issue 30) whose labels go by chance (issue 37). Target: at most 16. The
  bench fails when its setup is wrong (the notifier ran inside the run, a step other than
  Prepare, ScoreBatch and Finalize ran, no matches were stored, a card not labelled by chance).
- `BENCH match_reciprocal_precision_at_10` / `BENCH match_one_sided_precision_at_10`: on a
  synthetic population whose true mutual fit is known (hidden rules, noisy profiles), the share
  of each brand's top 10 that are true mutual fits, for the reciprocal engine and for ranking by
  one direction only.

Run: `.venv/bin/python tests/bench/matching.py` (BENCH_QUICK=1 for a smaller moto dataset).
"""

from __future__ import annotations

import os
import random
import statistics
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

from tandem.domain import matching  # noqa: E402
from tandem.domain.matching import Profile  # noqa: E402

COUNTRIES = ("GB", "US", "IE", "FR", "DE", "NL", "AU", "CA")
CATEGORIES = matching.CATEGORIES[:8]
KINDS = matching.COLLAB_KINDS[:6]
VALUES = matching.VALUES[:8]
AGES = ("18-24", "25-34", "35-44", "45-54", "55+")


def synthetic(rng: random.Random, brand_id: int, account: str | None = None) -> Profile:
    return Profile(
        brand_id=brand_id,
        account_id=account or f"acct-{brand_id}",
        category=rng.choice(CATEGORIES),
        company_size=rng.choice(matching.COMPANY_SIZES),
        values=frozenset(rng.sample(VALUES, rng.randint(1, 3))),
        collab_kinds=frozenset(rng.sample(KINDS, rng.randint(1, 3))),
        countries=frozenset(rng.sample(COUNTRIES, rng.randint(1, 3))),
        age_bands=frozenset(rng.sample(AGES, rng.randint(1, 2))),
        genders=frozenset(rng.sample(matching.GENDERS[:2], rng.randint(1, 2))),
    )


# ---------------------------------------------------------------- 1. one vs 100k


def bench_one_vs_100k(count: int = 100_000, repeats: int = 7) -> float:
    from tandem.services import match_runs

    rng = random.Random(1)
    shard = 2000
    records = [matching.pack(synthetic(rng, i)) for i in range(1, count + 1)]
    blobs = [b"".join(records[i : i + shard]) for i in range(0, count, shard)]  # as stored
    me = matching.pack(synthetic(rng, count + 1))
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        cands = matching.Packed.from_bytes(blobs)
        top = match_runs._top_entries(me, cands, excluded=[5, 6, 7], saved=[])
        chosen, _ = match_runs._choose(matching.unpack(me), top["top"], set())
        timings.append(time.perf_counter() - start)
        assert len(chosen) == match_runs.MATCHES_KEPT
    return statistics.median(timings)


# ---------------------------------------------------------------- 2. DynamoDB calls per run


class DynamoCalls:
    """Counts DynamoDB API calls made through botocore (boto3 and pynamodb alike)."""

    def __init__(self) -> None:
        self.count = 0
        self.by_operation: dict[str, int] = {}

    def __enter__(self) -> DynamoCalls:
        from botocore.client import BaseClient

        self._original = original = BaseClient._make_api_call
        counter = self

        def counting(client, operation_name, api_params):
            if client.meta.service_model.service_name == "dynamodb":
                counter.count += 1
                counter.by_operation[operation_name] = counter.by_operation.get(operation_name, 0) + 1
            return original(client, operation_name, api_params)

        BaseClient._make_api_call = counting
        return self

    def __exit__(self, *exc: object) -> None:
        from botocore.client import BaseClient

        BaseClient._make_api_call = self._original


def bench_ddb_calls(brands: int) -> tuple[int, dict[str, int], int]:
    from datetime import UTC, datetime

    from infra.local.lambda_inprocess import INVOCATIONS
    from infra.local.provision import inline_queue_consumers
    from tandem.config import reset_settings
    from tandem.integrations.aws import reset_clients
    from tandem.services import match_index, match_runs
    from tandem.store import keys
    from tandem.store.learning import MatchModel
    from tandem.store.models import Audience, Brand, Counter, bind_models
    from tests.conftest import wait_for_execution

    rng = random.Random(2)
    with _setup.moto_world() as plan:
        # The run alone: the new-matches notifier is another Lambda reading the queue (moto would
        # run it inline, inside the run's Finalize, and count its calls as the run's).
        inline_queue_consumers(False)
        reset_settings()
        reset_clients()
        bind_models()
        now = datetime.now(UTC)
        with Brand.batch_write() as batch:
            for brand_id in range(1, brands + 1):
                p = synthetic(rng, brand_id)
                batch.save(
                    Brand(
                        keys.brand_pk(brand_id),
                        keys.PROFILE,
                        brand_id=brand_id,
                        account_id=p.account_id,
                        name=f"Brand {brand_id}",
                        category=p.category,
                        company_size=p.company_size,
                        values=set(p.values),
                        collab_kinds=set(p.collab_kinds),
                        audience=Audience(
                            countries=set(p.countries), age_bands=set(p.age_bands), genders=set(p.genders)
                        ),
                        created_at=now,
                        gsi1pk=keys.ALL_BRANDS,
                        gsi1sk=keys.brand_list_sk(brand_id),
                        gsi2pk=keys.account_pk(p.account_id),
                        gsi2sk=keys.brand_list_sk(brand_id),
                    )
                )
        Counter(keys.COUNTER_PK, "brand", value=brands).save()
        # A learned model with history enough to weigh (issue 37: both directions, a collaborative
        # embedding of 3,000 brands with behaviour, label promises, chance labels): the run reads
        # and blends it.
        import json

        import numpy as np

        from tandem.domain.matching import training

        width = training.N_FEATURES + 1
        emb_rng = np.random.default_rng(5)
        active = np.sort(emb_rng.choice(np.arange(1, brands + 1), size=min(3_000, brands), replace=False))
        embedding = {
            "ids": active,
            "u": emb_rng.normal(0, 0.3, (len(active), training.CF_DIMS)),
            "v": emb_rng.normal(0, 0.3, (len(active), training.CF_DIMS)),
            # each active brand's liked step in company and audience size, with its confidence
            "taste": np.stack(
                [
                    emb_rng.normal(0, 1.0, (len(active), training.TASTE_FIELDS)),
                    emb_rng.uniform(0, 0.9, (len(active), training.TASTE_FIELDS)),
                ],
                axis=1,
            ),
        }
        taste = [-0.2, -0.2, 0.1, 0.1] * training.TASTE_FIELDS
        stored = {
            "version": training.MODEL_VERSION,
            "send": [0.05] * (width + 2) + taste + [-2.0],
            "accept": [0.1] * (width + 1) + taste + [-2.0],
            "evidence": 5_000,
            "groups": 400,
            "cf": training.pack_embedding(embedding, 1.0),
            "promises": {
                "Great fit": {"share": 0.4, "low": 0.35, "high": 0.45, "requests": 400, "groups": 120}
            },
            # labels by each card's chance of acceptance (training.label_plan's thresholds): the
            # run computes every kept card's chance, as a deployment with a model does
            "calibration": {"z": [-4.0, -2.0, 0.0], "p": [0.05, 0.2, 0.5]},
            "chances": {"Great fit": 30, "Good fit": 15},
        }
        MatchModel(
            *MatchModel.key(), weights=[], outcomes=5_000, trained_at=1, learned=json.dumps(stored)
        ).save()
        with DynamoCalls() as rebuild_calls:  # the nightly rebuild (reply tiers read by BatchGetItem)
            rebuilt = match_index.rebuild()
        detail = ", ".join(f"{op} {n}" for op, n in sorted(rebuild_calls.by_operation.items()))
        print(f"index rebuild of {rebuilt['shards']} shards: DynamoDB calls: {detail}")
        print(f"BENCH match_index_rebuild_ddb_calls_per_shard {rebuild_calls.count / rebuilt['shards']:.1f}")

        machine = plan.state_machines["MatchRunStateMachine"]
        me = brands // 2
        invoked_before = len(INVOCATIONS)
        with DynamoCalls() as calls:
            run = match_runs.start_run(me)
            arn = machine.arn.replace(":stateMachine:", ":execution:") + f":match-{me}-{run.run_id}"
            result = wait_for_execution(arn, timeout=300)
        if result["status"] != "SUCCEEDED":
            raise RuntimeError(f"match run did not succeed: {result}")
        stored = match_runs.get_run(me, run.run_id)
        invoked = INVOCATIONS[invoked_before:]
        if plan.functions["NotifierFunction"].name in invoked:
            raise RuntimeError("bench setup wrong: the notifier ran inside the match run and was counted")
        steps = {
            name: plan.functions[f"MatchRun{name}Function"].name
            for name in ("Prepare", "ScoreBatch", "Finalize")
        }
        expected = [steps["Prepare"], *[steps["ScoreBatch"]] * int(stored.batches), steps["Finalize"]]
        if sorted(invoked) != sorted(expected):
            raise RuntimeError(f"bench setup wrong: the run invoked {invoked}, expected {expected}")
        if not stored.matches:
            raise RuntimeError("bench setup wrong: the match run found no matches in its dataset")
        from tandem.store.matches import Match

        if not all(m.fit_by_chance for m in Match.of_brand(me).values()):
            raise RuntimeError(
                "bench setup wrong: the run did not label its cards by chance (no model read?)"
            )
        return calls.count, calls.by_operation, int(stored.matches), int(stored.batches)


# ---------------------------------------------------------------- 3. quality (known mutual fit)

# The hidden rules of the synthetic world (not the engine's rules): brand A would say yes to B
# when B reaches at least half of A's true markets, they want a kind of collaboration in common,
# their categories complement (a hidden table, not the engine's) and B is not much smaller.
_TRUE_COMPLEMENT = {
    frozenset(pair)
    for pair in [
        ("food & drink", "home"),
        ("food & drink", "wellness"),
        ("food & drink", "outdoors"),
        ("food & drink", "kids"),
        ("beauty", "fashion"),
        ("beauty", "wellness"),
        ("home", "wellness"),
        ("home", "kids"),
        ("home", "pets"),
        ("fashion", "outdoors"),
        ("wellness", "outdoors"),
        ("kids", "outdoors"),
        ("pets", "outdoors"),
        ("beauty", "home"),
    ]
}
_SIZE_RANK = {size: i for i, size in enumerate(matching.COMPANY_SIZES)}


def _accepts(a: Profile, b: Profile) -> bool:
    markets = len(a.countries & b.countries) * 2 >= len(a.countries)
    kinds = bool(a.collab_kinds & b.collab_kinds)
    category = frozenset((a.category, b.category)) in _TRUE_COMPLEMENT
    size = _SIZE_RANK[b.company_size] >= _SIZE_RANK[a.company_size] - 1
    return markets and kinds and category and size


def _world(rng: random.Random, count: int) -> tuple[list[Profile], list[Profile]]:
    """(true profiles, what members filled in: an item dropped or added now and then)."""
    truth, observed = [], []
    for i in range(1, count + 1):
        broad = rng.random() < 0.25  # big brands in many markets, open to many kinds
        p = Profile(
            brand_id=i,
            account_id=f"acct-{i}",
            category=rng.choice(CATEGORIES),
            company_size=rng.choice(matching.COMPANY_SIZES[2:] if broad else matching.COMPANY_SIZES[:3]),
            values=frozenset(rng.sample(VALUES, rng.randint(1, 3))),
            collab_kinds=frozenset(rng.sample(KINDS, rng.randint(3, 5) if broad else rng.randint(1, 2))),
            countries=frozenset(rng.sample(COUNTRIES, rng.randint(4, 7) if broad else rng.randint(1, 2))),
            age_bands=frozenset(rng.sample(AGES, rng.randint(1, 2))),
            genders=frozenset(rng.sample(matching.GENDERS[:2], rng.randint(1, 2))),
        )
        truth.append(p)
        observed.append(_noisy(rng, p))
    return truth, observed


def _noisy(rng: random.Random, p: Profile) -> Profile:
    def jitter(items: frozenset[str], vocab: tuple[str, ...]) -> frozenset[str]:
        out = set(items)
        if len(out) > 1 and rng.random() < 0.2:
            out.discard(rng.choice(sorted(out)))
        if rng.random() < 0.2:
            out.add(rng.choice(vocab))
        return frozenset(out)

    return Profile(
        brand_id=p.brand_id,
        account_id=p.account_id,
        category=p.category,
        company_size=p.company_size,
        values=jitter(p.values, VALUES),
        collab_kinds=jitter(p.collab_kinds, KINDS),
        countries=jitter(p.countries, COUNTRIES),
        age_bands=p.age_bands,
        genders=p.genders,
    )


def bench_quality(count: int = 4000, sample: int = 300) -> tuple[float, float, float]:
    from tandem.services import match_runs

    rng = random.Random(3)
    truth, observed = _world(rng, count)
    cands = matching.Packed.from_bytes(matching.pack(p) for p in observed)
    by_id = {p.brand_id: p for p in truth}
    reciprocal, one_sided, mutual_share = [], [], []
    for me in rng.sample(observed, sample):
        record = matching.pack(me)
        top = match_runs._top_entries(record, cands, excluded=[], saved=[])["top"]
        chosen, _ = match_runs._choose(me, top, set())
        ours = [s.candidate_id for s in chosen[:10]]
        baseline_scores = matching.score_packed(record, cands, one_sided=True).score
        theirs = [int(cands.ids[p]) for p in matching.top_positions(baseline_scores, 10)]

        def mutual(other_id: int, me: Profile = me) -> bool:
            a, b = by_id[me.brand_id], by_id[other_id]
            return _accepts(a, b) and _accepts(b, a)

        reciprocal.append(sum(map(mutual, ours)) / 10)
        one_sided.append(sum(map(mutual, theirs)) / 10)
        mutual_share.append(sum(mutual(p.brand_id) for p in truth if p.brand_id != me.brand_id) / (count - 1))
    return statistics.mean(reciprocal), statistics.mean(one_sided), statistics.mean(mutual_share)


def main() -> None:
    seconds = bench_one_vs_100k()
    print(f"BENCH match_one_vs_100k_s {seconds:.3f}")

    reciprocal, one_sided, base_rate = bench_quality()
    print(f"quality: {base_rate:.1%} of all pairs are true mutual fits (a random top 10's precision)")
    print(f"BENCH match_reciprocal_precision_at_10 {reciprocal:.3f}")
    print(f"BENCH match_one_sided_precision_at_10 {one_sided:.3f}")

    brands = 2_000 if os.environ.get("BENCH_QUICK") else 10_000
    calls, by_operation, matches, batches = bench_ddb_calls(brands)
    detail = ", ".join(f"{op} {n}" for op, n in sorted(by_operation.items()))
    print(
        f"match run over {brands} brands ({batches} Map items), {matches} matches; DynamoDB calls: {detail}"
    )
    print(f"BENCH match_run_ddb_calls {calls}")


if __name__ == "__main__":
    main()
