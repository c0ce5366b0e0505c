"""DynamoDB throttling on 20% of calls, and transactions cancelled by conflicts, during sends,
accepts, screens and match runs (issue 42). botocore retries throttling (4 attempts, backoff and
full jitter), the store retries a transaction cancelled only by a conflict; what still fails is a
503 "try again" for the member, never a 500. Once it lifts and the members try again: every
request exists once, every credit is spent once (the ledger check), every match run is done or
failed with its message, none left running."""

from __future__ import annotations

import pytest

from infra.local.faults import Faults
from tandem.integrations.outages import BUSY
from tandem.services import match_runs
from tests.functional.helpers import Brand, available, relation_state, send, wait_for_run

BUSY_ANSWER = {"error": BUSY, "code": "busy", "retryAfter": 2}


def _answered(outcomes: list[tuple[int, object]], ok: int) -> None:
    """Each answer is the route's own success or the 503 saying to try again, nothing else."""
    for status, body in outcomes:
        assert status == ok or (status, body) == (503, BUSY_ANSWER), (status, body)


def test_throttling_on_a_fifth_of_calls_loses_and_doubles_nothing(api, aws, faults: Faults) -> None:
    from tandem.services import credits as ledgers
    from tandem.store.matches import MatchRun

    senders = [Brand(f"s{i}@example.com", f"Sender {i}", credits=6, category="food") for i in range(6)]
    targets = [Brand(f"t{i}@example.com", f"Target {i}", category="food") for i in range(6)]
    from tandem.services import match_index

    match_index.rebuild()
    # for a minute of the faults' clock (botocore's and the state machines' retry waits move it)
    faults.add("dynamodb", "throttle", share=0.1, for_seconds=60)
    faults.add("dynamodb", "capacity", share=0.1 / 0.9, for_seconds=60)  # of the rest: 20% in all
    conflicts = faults.add("dynamodb", "conflict", match="transact_write_items", share=0.2, for_seconds=60)

    sends = [send(api, s, t) for s, t in zip(senders, targets, strict=True)]
    _answered(sends, 201)
    screens = [api.call("GET", "/api/requests?box=received", t.headers) for t in targets]
    screens += [api.call("GET", "/api/dashboard", s.headers) for s in senders]
    _answered(screens, 200)
    runs = [api.call("POST", f"/api/matching/run/{s.id}", s.headers) for s in senders[:3]]
    _answered(runs, 202)
    accepts = []
    for target, (status, body) in zip(targets, sends, strict=True):
        if status == 201:
            accepts.append(api.call("POST", f"/api/requests/{body['request']['id']}/accept", target.headers))
    _answered(accepts, 200)
    started = [(s, body["runId"]) for s, (status, body) in zip(senders, runs, strict=False) if status == 202]
    for sender, run_id in started:
        wait_for_run(api, sender.token, sender.id, run_id)  # its poll answers; the run ends
    # botocore's retries and the store's absorbed most (a run of this seed: 42 throttled calls,
    # 7 of 25 transactions cancelled by a conflict, every answer a success); whatever was not
    # absorbed was a 503 saying to try again, checked above
    assert faults.hits("dynamodb") > 0 and conflicts.hits > 0

    faults.clear()  # it lifts; members who were told to try again do
    for (status, _), sender, target in zip(sends, senders, targets, strict=True):
        if status != 201:
            again = send(api, sender, target)
            assert again[0] in (201, 409), again  # 409: the first one was made after all
    for target in targets:
        status, body = api.call("GET", "/api/requests?box=received", target.headers)
        assert status == 200, body
        for item in body["items"]:
            assert api.call("POST", f"/api/requests/{item['id']}/accept", target.headers)[0] == 200

    assert [relation_state(s.id, t.id) for s, t in zip(senders, targets, strict=True)] == ["connected"] * 6
    assert [available(s.account) for s in senders] == [5] * 6  # one credit spent each, once
    for target in targets:  # one request each, none doubled
        sent = api.call("GET", "/api/connections", target.headers)[1]
        assert len(sent["items"]) == 1, sent
    assert ledgers.verify_all()["mismatched"] == {}
    for sender, run_id in started:
        run = match_runs.get_run(sender.id, run_id)
        assert run.status in ("done", "failed")
        assert run.status == "done" or run.message == match_runs.FAILED_MESSAGE
    runs_held = list(MatchRun.scan(MatchRun.sk.startswith("MATCHRUN#")))
    assert len(runs_held) == len(started)  # a start told "try again" made no run
    assert {r.status for r in runs_held} <= {"done", "failed"}  # none left running


@pytest.mark.parametrize("kind", ["throttle", "capacity"])
def test_a_screen_whose_reads_stay_throttled_says_try_again(api, faults: Faults, kind: str) -> None:
    member = Brand("a@example.com", "Oat & Co", credits=6)
    faults.add("dynamodb", kind)
    assert api.call("GET", "/api/dashboard", member.headers) == (503, BUSY_ANSWER)
    # botocore tried the door's read four times (backoff, full jitter) before giving up; later
    # calls may get fewer tries once its retry quota (standard mode's token bucket) runs low
    assert faults.hits("dynamodb", kind) >= 4
    faults.clear()
    assert api.call("GET", "/api/dashboard", member.headers)[0] == 200


def test_a_send_whose_transaction_keeps_conflicting_changes_nothing_and_says_so(api, faults: Faults) -> None:
    oat, fern = Brand("a@example.com", "Oat & Co", credits=6), Brand("b@example.com", "Fern Candles")
    once = faults.add("dynamodb", "conflict", match="transact_write_items", times=2)
    assert send(api, oat, fern)[0] == 201  # two conflicts, retried by the store, then written
    assert once.hits == 2 and available(oat.account) == 5
