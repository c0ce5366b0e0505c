"""The day replay's report maths (tests/bench/day_report.py): percentiles, scaling, concurrency."""

from __future__ import annotations

import pytest

from tests.bench import day_report as report


def row(label="GET /api/x", status=200, cpu=1.0, start=0.0, end=1.0, calls=1, rcu=0.5, wcu=0.0):
    return [label, status, cpu, start, end, calls, rcu, wcu]


def test_nearest_rank_percentiles():
    values = list(range(1, 101))
    assert report.percentile(values, 50) == 50
    assert report.percentile(values, 99) == 99
    assert report.percentile([7.0], 99) == 7.0
    assert report.percentile([], 50) == 0.0


def test_routes_count_errors_and_means():
    rows = [row(cpu=c) for c in (1, 2, 3, 4)] + [row(status=500, cpu=10, calls=3, rcu=2.5, wcu=1)]
    (figures,) = report.routes(rows)
    assert (figures.count, figures.errors) == (5, 1)
    assert (figures.p50, figures.p99) == (3, 10)
    assert figures.ddb_calls == pytest.approx(7 / 5)
    assert figures.wcu == pytest.approx(0.2)


def test_a_replay_rate_scales_by_the_clock_and_the_members():
    # a day in 600 s runs 144x fast: 144 WCU/s seen is 1 WCU/s for those members, 100x at 100k
    assert report.compression(600) == 144
    assert report.to_target(144, members=1000, replay_s=600) == pytest.approx(100.0)
    assert report.to_target(144, members=1000, replay_s=600, shared=False) == pytest.approx(1.0)


def test_in_flight_is_the_busy_time_of_the_busiest_window():
    rows = [row(start=0.0, end=2.0), row(start=1.0, end=3.0), row(start=10.0, end=10.5)]
    # windows of 2 s: [0,2) holds 2 + 1 s of work, [2,4) holds 1 s, [10,12) half a second
    assert report.peak_in_flight(rows, 2.0, 0.0, 12.0) == (1.5, 0.0)


def test_runs_a_day_of_the_template_schedules():
    assert report.runs_per_day("rate(5 minutes)") == 288
    assert report.runs_per_day("rate(1 hour)") == 24
    assert report.runs_per_day("cron(0 3 * * ? *)") == 1
    assert report.runs_per_day("cron(0 * * * ? *)") == 24
    assert report.runs_per_day("cron(0 10 ? * MON *)") == pytest.approx(1 / 7)


def test_per_member_day_adds_each_job_per_brand_times_its_runs():
    day = {"calls": 1000, "rcu": 500.0, "wcu": 200.0}
    jobs = {
        "nightly": ({"calls": 40, "rcu": 20.0, "wcu": 400.0}, 1),
        "hourly": ({"calls": 2, "rcu": 1.0}, 24),
    }
    out = report.per_member_day(day, jobs, members=100, brands=200)
    assert out["wcu"] == pytest.approx(200 / 100 + 400 / 200)
    assert out["rcu"] == pytest.approx(5 + (20 + 24) / 200)
    assert out["calls"] == pytest.approx(10 + (40 + 48) / 200)


def test_shared_keys_are_the_ones_no_brand_owns():
    assert report.is_shared_key("ACTS#20261203")
    assert report.is_shared_key("gsi2:MATCHRUN#queued")
    assert not report.is_shared_key("BRAND#12")
    assert not report.is_shared_key("gsi1:REQ-IN#12")
