"""The figures docs/cost.md is computed from (infra/cost.py reads these BENCH lines), measured on
moto with the state machines really executed and every Lambda handler run in-process:

    BENCH sfn_transitions_per_match_run    states entered by one match run (200 brands in the index)
    BENCH lambda_invocations_per_match_run
    BENCH match_run_lambda_ms              handler time of all its invocations together
    BENCH sfn_transitions_per_stripe_event states entered by one billing execution
    BENCH api_call_ms                      median handler time of a screen's API call (warm)
    BENCH emails_per_request               notifications mailed for one request sent and accepted

In-process handler times are this machine's, not Lambda's: infra/cost.py rounds them up to
Lambda's billing and states that. Nothing here asserts a number.
"""

from __future__ import annotations

import json
import statistics
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR", POWERTOOLS_METRICS_DISABLED="true")


def _entered(execution_arn: str) -> int:
    from tandem.integrations.aws import client

    history = client("stepfunctions").get_execution_history(executionArn=execution_arn, maxResults=1000)
    return sum(1 for e in history["events"] if e["type"].endswith("StateEntered"))


def main() -> None:
    with _setup.moto_world() as plan:
        from infra.local import lambda_inprocess
        from tandem.services import match_index, match_runs
        from tests.conftest import wait_for_execution
        from tests.factories import auth_headers, member, population
        from tests.functional.helpers import Api, sent_mail, subscribe

        _, (brand,), token = member("me@bench.example", ("Bench Brand",), category="food")
        population(200)
        match_index.rebuild()
        before = len(lambda_inprocess.INVOCATIONS)
        started = time.perf_counter()
        run = match_runs.start_run(int(brand.brand_id))
        machine = plan.state_machines["MatchRunStateMachine"].arn.replace(":stateMachine:", ":execution:")
        arn = f"{machine}:match-{int(brand.brand_id)}-{run.run_id}"
        assert wait_for_execution(arn, timeout=300)["status"] == "SUCCEEDED"
        elapsed_ms = (time.perf_counter() - started) * 1000
        print(f"BENCH sfn_transitions_per_match_run {_entered(arn)}")
        print(f"BENCH lambda_invocations_per_match_run {len(lambda_inprocess.INVOCATIONS) - before}")
        print(f"BENCH match_run_lambda_ms {elapsed_ms:.0f}")

        # a billing execution on the happy path: the workflow's states for one event
        billing = json.loads((_setup.ROOT / "infra/statemachines/billing.asl.json").read_text())
        state, entered = billing["StartAt"], 0
        while state:
            entered += 1
            state = billing["States"][state].get("Next")
        print(f"BENCH sfn_transitions_per_stripe_event {entered}")

        api = Api(plan)
        headers = auth_headers(token, int(brand.brand_id))
        times = []
        for path in ("/api/dashboard", "/api/matches", "/api/requests?box=received", "/api/users") * 5:
            t0 = time.perf_counter()
            status, _ = api.call("GET", path, headers)
            times.append((time.perf_counter() - t0) * 1000)
            assert status == 200, path
        print(f"BENCH api_call_ms {statistics.median(times):.0f}")

        from tandem.services import credits

        subscribe(brand.account_id)
        credits.grant(
            brand.account_id, kind="main", amount=5, valid_from=0, valid_to=4_000_000_000, op_id="c"
        )
        _, (other,), other_token = member("them@bench.example", ("Other Co",), category="food")
        subscribe(other.account_id)
        mails = len(sent_mail())
        status, body = api.call(
            "POST", "/api/requests", headers, {"toBrandId": int(other.brand_id), "message": "Hi"}
        )
        assert status == 201, body
        request_id = body["request"]["id"]
        other_headers = auth_headers(other_token, int(other.brand_id))
        status, body = api.call("POST", f"/api/requests/{request_id}/accept", other_headers)
        assert status == 200, body
        print(f"BENCH emails_per_request {len(sent_mail()) - mails}")


if __name__ == "__main__":
    main()
