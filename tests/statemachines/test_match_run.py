"""The match-run state machines, really executed by moto, with handlers in-process."""

from __future__ import annotations

import pytest

from tests.conftest import wait_for_execution
from tests.factories import member, population


def _execution_arn(plan, run) -> str:
    machine = plan.state_machines["MatchRunStateMachine"]
    name = f"match-{int(run.brand_id)}-{run.run_id}"
    return machine.arn.replace(":stateMachine:", ":execution:") + ":" + name


def _matches(brand_id: int) -> dict:
    from tandem.store.matches import Match

    return Match.of_brand(brand_id)


def _new_matches(brand_id: int) -> set[int]:
    from tandem.store import news

    return {int(i) for i in news.ids(news.read(brand_id), news.MATCHES)}


@pytest.fixture
def small_shards(monkeypatch):
    """Shards of 8 brands, so a small population spans several shards and Map items."""
    from tandem.services import match_index

    monkeypatch.setattr(match_index, "SHARD_SIZE", 8)


def test_run_goes_through_prepare_map_finalize_and_stores_matches(aws, monkeypatch, small_shards):
    from tandem.config import reset_settings
    from tandem.services import match_index, match_runs

    monkeypatch.setenv("MATCH_RUN_BATCH_SIZE", "8")  # one shard per Map item
    reset_settings()
    _, (brand,), _ = member(
        category="food & drink",
        collab_kinds=["giveaways", "events"],
        values=["vegan"],
        countries=["GB"],
        age_bands=["25-34"],
    )
    population(20)
    match_index.rebuild()

    run = match_runs.start_run(int(brand.brand_id))
    result = wait_for_execution(_execution_arn(aws, run))

    assert result["status"] == "SUCCEEDED", result
    stored = match_runs.get_run(int(brand.brand_id), run.run_id)
    assert stored.status == "done"
    assert stored.batches == 3  # ids 1..21 in shards of 8: 0-7, 8-15, 16-23
    assert stored.candidates == 20
    assert stored.matches > 0
    assert "new match" in stored.message
    assert len(_new_matches(int(brand.brand_id))) == stored.matches
    matches = _matches(int(brand.brand_id))
    assert sorted(int(m.rank) for m in matches.values()) == list(range(1, len(matches) + 1))
    best = min(matches.values(), key=lambda m: m.rank)
    assert best.reasons and all(isinstance(r, str) and r for r in best.reasons)
    assert any("in the UK" in r for m in matches.values() for r in m.reasons)


def test_rerun_keeps_seen_drops_excluded_and_keeps_saved(aws, small_shards):
    from tandem.services import match_index, match_runs
    from tandem.store import news
    from tandem.store.models import BrandRelation

    _, (brand,), _ = member(
        category="food & drink", collab_kinds=["giveaways", "events"], values=["vegan"], countries=["GB"]
    )
    population(20)
    match_index.rebuild()
    me = int(brand.brand_id)

    first = match_runs.start_run(me)
    assert wait_for_execution(_execution_arn(aws, first))["status"] == "SUCCEEDED"
    before = _matches(me)
    seen_id, dismissed_id, saved_id = sorted(before)[:3]
    assert {seen_id, dismissed_id, saved_id} <= _new_matches(me)
    news.remove(me, news.MATCHES, [seen_id])  # listed: no longer new
    BrandRelation.set_flags(me, dismissed_id, dismissed=True)
    BrandRelation.set_flags(me, saved_id, saved=True)

    second = match_runs.start_run(me)
    assert wait_for_execution(_execution_arn(aws, second))["status"] == "SUCCEEDED"
    after = _matches(me)
    assert dismissed_id not in after  # became excluded: its stale match is removed
    assert seen_id in after and seen_id not in _new_matches(me)  # seen stays seen
    assert dismissed_id not in _new_matches(me)
    assert saved_id in after
    assert match_runs.get_run(me, second.run_id).message == "Your matches are up to date."


def test_failing_step_reaches_failure_path_with_clear_status(aws, monkeypatch):
    from tandem.integrations.aws import client
    from tandem.services import match_runs

    _, (brand,), _ = member()
    population(3)

    def broken(*args, **kwargs):
        raise RuntimeError("scoring exploded")

    monkeypatch.setattr(match_runs, "score_batch", broken)
    run = match_runs.start_run(int(brand.brand_id))
    arn = _execution_arn(aws, run)
    result = wait_for_execution(arn)

    assert result["status"] == "FAILED"
    assert result.get("error") == "MatchRunFailed"
    stored = match_runs.get_run(int(brand.brand_id), run.run_id)
    assert stored.status == "failed"
    assert stored.message == match_runs.FAILED_MESSAGE
    history = client("stepfunctions").get_execution_history(executionArn=arn)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert entered[:2] == ["Prepare", "ScoreBatches"]
    assert "MarkFailed" in entered and "Finalize" not in entered


def test_profile_change_refreshes_the_index_and_starts_a_run(aws, small_shards):
    from tandem.domain import matching
    from tandem.services import brands, match_index, match_runs
    from tandem.store.models import Brand

    population(10)
    match_index.rebuild()
    _, (brand,), _ = member(category="beauty", countries=["FR"])
    brand_id = int(brand.brand_id)
    brand.update(actions=[Brand.category.set("pets")])

    run = match_runs.profile_changed(brand_id, created=False, changed={"category"})
    assert run is not None and run.trigger == "profile"
    packed = match_index.load([match_index.shard_of(brand_id)])
    record = packed.record(packed.ids.tolist().index(brand_id))
    assert matching.unpack(record).category == "pets"
    assert matching.unpack(record).countries == frozenset({"FR"})
    assert match_runs.profile_changed(brand_id, created=False, changed={"description"}) is None
    assert wait_for_execution(_execution_arn(aws, run))["status"] == "SUCCEEDED"
    assert brands.get_brand(brand_id).category == "pets"


def test_concurrent_refreshes_of_one_shard_lose_nothing(aws, small_shards):
    from concurrent.futures import ThreadPoolExecutor

    from tandem.services import match_index

    made = population(7)  # ids 1..7: one shard
    with ThreadPoolExecutor(max_workers=7) as pool:
        list(pool.map(match_index.refresh, made))
    packed = match_index.load([0])
    assert sorted(packed.ids.tolist()) == [int(b.brand_id) for b in made]


def test_nightly_run_rebuilds_the_index_and_matches_every_brand(aws, monkeypatch, small_shards):
    from tandem.integrations.aws import client
    from tandem.services import match_index, match_runs
    from tandem.store.matches import MatchIndexShard

    made = population(20)
    monkeypatch.setattr(match_runs, "NIGHTLY_BATCH", 6)  # several Map items
    assert list(MatchIndexShard.query("MATCHINDEX")) == []  # never built: the nightly run builds it

    started = match_runs.start_nightly()
    machine = aws.state_machines["NightlyMatchRunStateMachine"]
    arn = machine.arn.replace(":stateMachine:", ":execution:") + ":" + started["execution"]
    result = wait_for_execution(arn)

    assert result["status"] == "SUCCEEDED", result
    assert len(list(MatchIndexShard.query("MATCHINDEX"))) == match_index.shard_count() == 3
    for brand in made:
        assert _matches(int(brand.brand_id)), f"brand {brand.brand_id} got no matches"
    history = client("stepfunctions").get_execution_history(executionArn=arn)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert entered.count("NightlyBatch") == 4  # ids 1..20 in ranges of 6


def test_nightly_batch_failure_fails_the_execution_clearly(aws, monkeypatch):
    from tandem.services import match_runs

    population(3)

    def broken(*args, **kwargs):
        raise RuntimeError("index unreadable")

    monkeypatch.setattr(match_runs, "nightly_batch", broken)
    started = match_runs.start_nightly()
    machine = aws.state_machines["NightlyMatchRunStateMachine"]
    arn = machine.arn.replace(":stateMachine:", ":execution:") + ":" + started["execution"]
    result = wait_for_execution(arn)
    assert result["status"] == "FAILED"
    assert result.get("error") == "NightlyMatchRunFailed"
    assert "nightly" in result.get("cause", "").lower()


def test_a_run_for_a_brand_that_does_not_exist_is_not_started(aws):
    """The brand's existence is a condition of the transaction that records the run: nothing is
    recorded and no execution starts."""
    from tandem.errors import NotFound
    from tandem.integrations.aws import client
    from tandem.services import match_runs
    from tandem.store import news
    from tandem.store.matches import MatchRun

    with pytest.raises(NotFound, match="Brand not found"):
        match_runs.start_run(987654)
    assert list(MatchRun.of_brand(987654)) == []
    assert news.open_run_of(news.read(987654)) is None
    machine = aws.state_machines["MatchRunStateMachine"]
    assert client("stepfunctions").list_executions(stateMachineArn=machine.arn)["executions"] == []
