"""The match-run state machine, really executed by moto, with handlers in-process."""

from __future__ import annotations

from tests.conftest import wait_for_execution
from tests.factories import member, population


def _execution_arn(plan, run) -> str:
    machine = plan.state_machines["MatchRunStateMachine"]
    name = f"match-{int(run.brand_id)}-{run.run_id}"
    return machine.arn.replace(":stateMachine:", ":execution:") + ":" + name


def test_run_goes_through_prepare_map_finalize_and_stores_matches(aws, monkeypatch):
    from tandem.config import reset_settings
    from tandem.services import match_runs

    monkeypatch.setenv("MATCH_RUN_BATCH_SIZE", "7")  # several Map iterations
    reset_settings()
    _, (brand,), _ = member(
        collab_kinds=["giveaways", "events"], values=["vegan"], countries=["GB"], age_bands=["25-34"]
    )
    population(20)

    run = match_runs.start_run(int(brand.brand_id))
    result = wait_for_execution(_execution_arn(aws, run))

    assert result["status"] == "SUCCEEDED"
    stored = match_runs.get_run(int(brand.brand_id), run.run_id)
    assert stored.status == "done"
    assert stored.batches == 3  # 20 candidates in batches of 7
    assert stored.matches > 0
    assert "new match" in stored.message
    assert match_runs.new_match_count(int(brand.brand_id)) == stored.matches


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
