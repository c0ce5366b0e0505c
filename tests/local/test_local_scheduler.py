"""The local stack runs the scheduler's jobs on template.yaml's schedules (infra/local/scheduler.py),
sleeping until the next one is due, and runs one on demand at POST /__local/jobs/<job>."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests

from infra.local.scheduler import MAX_WAIT, Cron, LocalScheduler, Rate, parse
from infra.local.template import build_plan, load_template
from tests.local.stack import StackProcesses
from tests.local.test_local_stack import STOP_WITHIN_SECONDS

OPPORTUNITY = {
    "title": "Winter gift box partners",
    "offer": "A spot in our winter gift box, sent to 5,000 subscribers.",
    "lookingFor": "Independent food and home brands with a giftable product.",
    "collabKinds": ["bundles"],
    "audience": "UK",
    "closingDate": None,
    "months": 3,
    "acceptTerms": True,
}


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_every_schedule_of_the_template_is_a_local_job():
    template_events = {
        props["Input"]: props["Schedule"]
        for resource in load_template()["Resources"].values()
        if resource["Type"] == "AWS::Serverless::Function"
        for event in resource["Properties"].get("Events", {}).values()
        if event["Type"] == "Schedule"
        for props in (event["Properties"],)
    }
    plan = build_plan()
    jobs = {s.input["job"]: s.expression for s in plan.schedules}
    assert len(jobs) == len(template_events) >= 8
    assert jobs["expire-features"] == "rate(1 hour)"
    assert jobs["nightly-match-run"] == "cron(0 3 * * ? *)"
    for schedule in plan.schedules:
        parse(schedule.expression)  # every one is understood


def test_rates_and_crons_give_the_next_due_time_in_utc():
    hourly = parse("rate(1 hour)")
    assert isinstance(hourly, Rate) and hourly.first(1000.0) == 4600.0
    assert hourly.after(4600.0, 4601.0) == 8200.0
    assert hourly.after(4600.0, 4600.0 + 3 * 3600 + 5) == 4600.0 + 4 * 3600  # missed runs skipped
    assert parse("rate(5 minutes)").first(0.0) == 300.0

    nightly = parse("cron(0 3 * * ? *)")
    assert isinstance(nightly, Cron)
    assert nightly.next_after(at("2026-11-23T02:59:30")) == at("2026-11-23T03:00:00")
    assert nightly.next_after(at("2026-11-23T03:00:00")) == at("2026-11-24T03:00:00")
    on_the_hour = parse("cron(0 * * * ? *)")
    assert on_the_hour.next_after(at("2026-12-31T23:10:00")) == at("2027-01-01T00:00:00")
    mondays = parse("cron(0 10 ? * MON *)")  # 2026-11-22 is a Sunday
    assert mondays.next_after(at("2026-11-22T12:00:00")) == at("2026-11-23T10:00:00")
    assert mondays.next_after(at("2026-11-23T10:00:00")) == at("2026-11-30T10:00:00")
    assert parse("cron(30 2 * * ? *)").next_after(at("2026-11-23T02:30:00")) == at("2026-11-24T02:30:00")
    for bad in (
        "rate(0 hours)",
        "rate(1 week)",
        "cron(0 3 L * ? *)",
        "cron(0 3 * *)",
        "at(2026-11-23T00:00)",
    ):
        with pytest.raises(ValueError):
            parse(bad)


def test_the_scheduler_thread_expires_a_feature_when_its_hourly_job_is_due(aws):
    """In-process, on a moto account: the thread sleeps until the job is due (never a fast
    poll), runs expire-features through the scheduler function, and stops at once."""
    from tandem.services import accounts, tokens
    from tandem.store.pitch import Feature, FeatureSlot
    from tests.functional.helpers import Api, Brand

    api = Api(aws)
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    _, admin = accounts.create_account_with_user(
        email="boss@example.com", name="Ada Admin", password=None, access="admin"
    )
    boss = {"Authorization": f"Bearer {tokens.issue_access_token(admin.user_id, admin.account_id, 'admin')}"}
    status, body = api.call("POST", "/api/pitch", oat.headers, OPPORTUNITY)
    assert status == 201, body
    fid = body["feature"]["id"]
    assert api.call("POST", f"/api/admin/features/{fid}/approve", boss)[0] == 200
    end = int(time.time()) - 1  # its term is over
    Feature.at(fid).update(actions=[Feature.expires_at.set(end)])
    FeatureSlot.at(oat.id).update(actions=[FeatureSlot.expires_at.set(end)])

    now = [time.time()]
    scheduler = LocalScheduler(aws, clock=lambda: now[0]).start()
    try:
        expire = next(j for j in scheduler.jobs if j.job == "expire-features")
        assert expire.due == pytest.approx(now[0] + 3600)
        deadline = time.monotonic() + 30
        while not scheduler.waits and time.monotonic() < deadline:
            time.sleep(0.05)
        # nothing due: it sleeps until the earliest job is (5 minutes at most), not a fast poll
        earliest = min(j.due for j in scheduler.jobs) - now[0]
        assert scheduler.waits == [pytest.approx(min(earliest, MAX_WAIT))] and 0 < earliest <= 300
        assert Feature.find(fid).status == "live" and expire.runs == 0

        now[0] += 3600  # an hour later
        scheduler.wake()
        while Feature.find(fid).status != "expired" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert Feature.find(fid).status == "expired"
        while expire.runs == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert expire.last_result == {"job": "expire-features", "result": {"expired": 1}}
        assert expire.due == pytest.approx(now[0] + 3600)  # the next one, an hour on
        status = {s["job"]: s for s in scheduler.status()}
        assert status["expire-features"]["runs"] == 1 and status["expire-features"]["failed"] is False
    finally:
        scheduler.stop(timeout=10)
    assert not scheduler._thread.is_alive()


def test_the_stack_lists_its_jobs_runs_one_on_demand_and_still_stops_at_once(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root, "--schedules", "on")
    assert f"Scheduled jobs: {stack.url}/__local/jobs" in stack.output

    listed = requests.get(f"{stack.url}/__local/jobs", timeout=30)
    assert listed.status_code == 200
    jobs = {j["job"]: j for j in listed.json()["jobs"]}
    assert {"expire-features", "nightly-match-run", "fail-stuck-match-runs", "weekly-tip"} <= set(jobs)
    assert jobs["expire-features"]["schedule"] == "rate(1 hour)" and jobs["expire-features"]["runs"] == 0
    assert jobs["expire-features"]["nextRun"].endswith("Z")

    ran = requests.post(f"{stack.url}/__local/jobs/expire-features", timeout=60)
    assert (ran.status_code, ran.json()) == (
        200,
        {"job": "expire-features", "result": {"job": "expire-features", "result": {"expired": 0}}},
    )
    listed = {j["job"]: j for j in requests.get(f"{stack.url}/__local/jobs", timeout=30).json()["jobs"]}
    assert listed["expire-features"]["runs"] == 1
    # a job the scheduler knows without a schedule (make deploy runs it) runs too
    assert requests.post(f"{stack.url}/__local/jobs/claim-legacy-emails", timeout=60).status_code == 200
    unknown = requests.post(f"{stack.url}/__local/jobs/make-coffee", timeout=30)
    assert unknown.status_code == 404 and "expire-features" in unknown.json()["error"]
    assert requests.get(f"{stack.url}/__local/jobs/expire-features", timeout=30).status_code == 405

    code, seconds = stack.stop(signal.SIGTERM)
    assert code == 0, stack.output
    assert seconds < STOP_WITHIN_SECONDS, stack.output
    assert "failed:" not in stack.output  # no job failed ("Scheduled job <name> failed: ...")


def test_the_local_clock_runs_jobs_as_if_later():
    """POST /__local/clock moves the jobs' clock: each run's event then carries that `now`."""
    import time

    from infra.local.scheduler import LocalScheduler

    events = []
    scheduler = LocalScheduler(build_plan(), runner=lambda fn, event: (events.append(event) or {}, False))
    assert build_plan().schedules and any(j.job == "expire-requests" for j in scheduler.jobs)
    scheduler.run_now("expire-requests")
    assert events[-1] == {"job": "expire-requests"}  # the wall clock: nothing added
    scheduler.offset = 14 * 86400
    before = time.time()
    scheduler.run_now("expire-requests")
    assert events[-1]["job"] == "expire-requests"
    assert before + 14 * 86400 - 1 <= events[-1]["now"] <= time.time() + 14 * 86400 + 1


def test_a_scheduler_not_started_runs_jobs_only_when_asked():
    """--schedules manual (the browser journeys' stacks): nothing is due by the wall clock, and
    POST /__local/jobs/<job> still runs a job."""
    from infra.local.scheduler import LocalScheduler

    events = []
    scheduler = LocalScheduler(build_plan(), runner=lambda fn, event: (events.append(event) or {}, False))
    assert not scheduler.running
    assert {j["nextRun"] for j in scheduler.status()} == {None}
    scheduler.run_now("expire-requests")
    assert events == [{"job": "expire-requests"}]
    assert {j["job"]: j["runs"] for j in scheduler.status()}["expire-requests"] == 1
