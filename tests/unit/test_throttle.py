"""Sliding-window throttle rules (tandem.domain.throttle), no storage."""

from __future__ import annotations

import pytest

from tandem.domain.throttle import Policy, Usage, Window, wait_text

MINUTE = Window("t", 15 * 60, 60)
HOUR = Window("t", 3600, 300)
T0 = 1_800_000_000  # an hour boundary


def test_a_window_is_every_bucket_that_overlaps_it():
    assert MINUTE.buckets(T0 + 30) == [T0 - 900 + 60 * i for i in range(16)]
    assert HOUR.buckets(T0) == [T0 - 3600 + 300 * i for i in range(13)]
    assert MINUTE.bucket_of(T0 + 59.9) == T0


def test_a_window_read_after_a_later_clock_reading_runs_on_to_its_bucket():
    assert MINUTE.buckets(T0 - 0.5, until=T0 + 0.5) == [T0 - 960 + 60 * i for i in range(17)]
    assert MINUTE.buckets(T0 + 30, until=T0 + 31) == MINUTE.buckets(T0 + 30)
    assert MINUTE.buckets(T0 + 30, until=T0) == MINUTE.buckets(T0 + 30)  # never shorter


@pytest.mark.parametrize(
    ("failures", "delay"),
    [(0, 0), (4, 0), (5, 30), (6, 60), (7, 120), (8, 240), (9, 480), (10, 900), (40, 900)],
)
def test_delays_double_after_the_free_attempts_up_to_fifteen_minutes(failures, delay):
    assert Policy(MINUTE, free=5).delay_after(failures) == delay


def test_the_wait_counts_from_the_latest_attempt():
    policy = Policy(MINUTE, free=5)
    usage = Usage({T0: 6}, last=T0 + 10)
    assert policy.wait(usage, T0 + 10) == 60
    assert policy.wait(usage, T0 + 69) == 1
    assert policy.wait(usage, T0 + 70) == 0
    assert policy.wait(Usage({T0: 4}, last=T0 + 10), T0 + 10) == 0


def test_a_ceiling_holds_until_enough_attempts_slide_out_of_the_window():
    policy = Policy(HOUR, ceiling=100)
    usage = Usage({T0 - 1800: 60, T0 - 600: 40}, last=T0)
    # The older bucket leaves once it no longer overlaps the hour: start + 300 + 3600.
    assert policy.wait(usage, T0) == 2100
    assert policy.wait(Usage({T0: 99}, last=T0), T0) == 0


def test_waits_read_as_whole_minutes_rounded_up():
    assert [wait_text(s) for s in (1, 60, 61, 899, 900)] == [
        "1 minute",
        "1 minute",
        "2 minutes",
        "15 minutes",
        "15 minutes",
    ]
