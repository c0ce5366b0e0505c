"""Loaded (PYTHONPATH) by the calendar pass (tests/calendar_pass.py), and by every Python process
of a `make test` started under libfaketime (the Makefile): both run it with the wall clock moved
and the monotonic clock left alone (FAKETIME_DONT_FAKE_MONOTONIC=1: with it faked, every timed
wait of a lock or condition waits on the real monotonic clock for the faked deadline, i.e. for
ever). libfaketime 0.9.10 then breaks time.sleep: CPython sleeps with
clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), and the library shifts that absolute deadline by
the wall clock's offset, so the kernel answers EINVAL. Here time.sleep waits on an Event instead
(a monotonic timed wait, which libfaketime leaves alone): the same sleep, without clock_nanosleep."""

import threading
import time

_wait = threading.Event().wait


def _sleep(seconds: float) -> None:
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _wait(seconds)


time.sleep = _sleep
