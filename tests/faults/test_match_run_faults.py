"""A match run whose ScoreBatch task times out (issue 42), executed by moto's Step Functions
with the Lambda timeout as Lambda reports it (Sandbox.Timedout): once, the state machine's
Retry takes it again and the run is done; every time, the retries end in the Catch, the run is
marked failed and the member's poll says so in words. Never left "running"."""

from __future__ import annotations

from infra.local.faults import Faults
from tandem.services import match_runs
from tests.factories import auth_headers, member, population
from tests.functional.helpers import Api


def _run(aws, faults: Faults) -> tuple[dict, list[str], object]:
    from tandem.integrations.aws import client
    from tests.conftest import wait_for_execution

    _, (brand,), token = member(category="food & drink", collab_kinds=["giveaways"], countries=["GB"])
    population(6)
    from tandem.services import match_index

    match_index.rebuild()
    api = Api(aws)
    headers = auth_headers(token, int(brand.brand_id))
    status, started = api.call("POST", f"/api/matching/run/{int(brand.brand_id)}", headers)
    assert status == 202, started
    machine = aws.state_machines["MatchRunStateMachine"]
    name = f"match-{int(brand.brand_id)}-{started['runId']}"
    arn = machine.arn.replace(":stateMachine:", ":execution:") + ":" + name
    result = wait_for_execution(arn)
    history = client("stepfunctions").get_execution_history(executionArn=arn)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    path = f"/api/matching/run-check/{started['runId']}/{int(brand.brand_id)}"
    status, check = api.call("GET", path, headers)
    assert status == 200, check
    return {"execution": result["status"], **check}, entered, brand


def test_a_score_batch_that_times_out_once_is_retried_and_the_run_is_done(aws, faults: Faults) -> None:
    name = aws.functions["MatchRunScoreBatchFunction"].name
    timeout = faults.add("lambda", "timeout", match=name, times=1)
    check, entered, brand = _run(aws, faults)
    assert timeout.hits == 1
    assert (check["execution"], check["status"]) == ("SUCCEEDED", "done")
    assert "MarkFailed" not in entered  # the retry (Sandbox.Timedout) scored the batch
    assert "new match" in check["message"]


def test_a_score_batch_that_always_times_out_fails_the_run_and_the_member_is_told(
    aws, faults: Faults
) -> None:
    timeout = faults.add("lambda", "timeout", match=aws.functions["MatchRunScoreBatchFunction"].name)
    check, entered, _ = _run(aws, faults)
    assert timeout.hits == 3  # the first try and the two retries of Sandbox.Timedout
    assert entered[-2:] == ["MarkFailed", "RunFailed"]
    assert (check["execution"], check["status"], check["message"]) == (
        "FAILED",
        "failed",
        match_runs.FAILED_MESSAGE,
    )


def test_a_score_batch_that_raises_is_not_retried_and_fails_the_run_with_the_message(
    aws, faults: Faults
) -> None:
    raising = faults.add("lambda", "raise", match=aws.functions["MatchRunScoreBatchFunction"].name)
    check, entered, _ = _run(aws, faults)
    assert raising.hits == 1  # a defect, not a transient: straight to the Catch
    assert (check["status"], check["message"]) == ("failed", match_runs.FAILED_MESSAGE)
