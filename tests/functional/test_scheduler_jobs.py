"""The scheduler function's jobs (functions/scheduler/app.py), invoked through the Lambda API as
EventBridge and the local stack's scheduler invoke them."""

from __future__ import annotations

from datetime import UTC, datetime


def test_every_job_that_takes_the_local_clock_runs_with_it(aws):
    """The local clock control (POST /__local/clock) invokes each job with {"now": epoch
    seconds}; each job that takes a `now` runs with one (three took a datetime and raised)."""
    import inspect
    import json

    from infra.local import lambda_inprocess
    from tandem.integrations.aws import client

    scheduler = aws.functions["SchedulerFunction"]
    jobs = lambda_inprocess.load_handler_module(scheduler).JOBS
    timed = sorted(name for name, run in jobs.items() if "now" in inspect.signature(run).parameters)
    assert {"fail-stuck-match-runs", "new-matches-digest", "weekly-tip", "expire-requests"} <= set(timed)
    now = int(datetime(2027, 2, 28, 23, 30, tzinfo=UTC).timestamp())
    for job in timed:
        answer = client("lambda").invoke(
            FunctionName=scheduler.name, Payload=json.dumps({"job": job, "now": now}).encode()
        )
        payload = json.loads(answer["Payload"].read())
        assert "FunctionError" not in answer, (job, payload)
        assert payload["job"] == job
