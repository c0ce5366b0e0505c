"""The calendar pass (issue 36): the money-and-time tests run with the wall clock of the
whole process tree moved by libfaketime (Debian's `faketime`) to each of the dates that break
calendars, the clock running on from there. Tests that move a clock of their own start it on
the same date (TANDEM_TEST_START, tests/clock.py). Exits non-zero if any date fails, naming
it; `make test` runs it as its ci-calendar part (tests/bench/timed.py prints BENCH ci_calendar_s),
and its pytest part leaves these tests to it (`runs_here`), so they run there only.

    python tests/calendar_pass.py            # every date, the tests in TESTS
    python tests/calendar_pass.py --date '2028-02-29 12:00:00' tests/unit/test_calendar.py

Standard library only; run with the project's venv Python (it runs pytest with it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# UTC instants. The red day of issue 36, a month's 31st, the last half hour of a short February,
# a leap day, both UK clock changes at 00:30 UTC (half an hour before clocks go forward on the
# last Sunday of March, and back on the last Sunday of October), and the year's last quarter hour.
DATES = (
    "2026-12-01 21:00:00",
    "2027-01-31 10:00:00",
    "2027-02-28 23:30:00",
    "2028-02-29 12:00:00",
    "2027-03-28 00:30:00",
    "2027-10-31 00:30:00",
    "2026-12-31 23:45:00",
)

# The money-and-time tests. At every date: the calendar's own tests (the fake Stripe's clock and
# Stripe's month-end rule, billing rules, credits, entitlements, the trial, request expiry and
# reminders, display dates) and the real stripe library against the fake.
TESTS = (
    "tests/unit/test_calendar.py",
    "tests/unit/test_billing_rules.py",
    "tests/unit/test_entitlements.py",
    "tests/unit/test_credit_rules.py",
    "tests/unit/test_formats.py",
    "tests/unit/test_request_expiry_rules.py",
    "tests/local/test_fake_stripe.py",
    "tests/functional/test_stripe_client.py",
    "tests/functional/test_credits.py",
)
# The whole stack's money-and-time journeys (checkout to credits, trials, features, expiry and
# its emails, on moto with state machines executed) cost minutes of CPU a date under the
# library: they run at the date that breaks the most at once, the last half hour of a short
# February (the next day is 1 March, the month's credits renew, a 31st anchor bills its last day).
JOURNEYS = (
    "tests/functional/test_billing.py",
    "tests/functional/test_entitlements.py",
    "tests/functional/test_request_expiry.py",
    "tests/functional/test_pitch.py",
)
JOURNEYS_DATE = "2027-02-28 23:30:00"
# Tests of races and of event order, not of dates: each is minutes under libfaketime (every clock
# read goes through the library) and runs in the main pytest part already.
NOT_DATES = (
    "test_expiry_racing_an_accept_ends_in_one_state_with_the_credit_counted_once",
    "test_two_runs_at_once_do_each_step_once",
    "test_shuffled_duplicated_events_of_many_customers_leave_the_ordered_state",
)


def runs_here(nodeid: str) -> bool:
    """Whether the pass runs this test (a pytest node id): `make test`'s pytest part leaves these
    to the pass (`--dated-in-calendar-pass`, tests/conftest.py) rather than run them twice."""
    path = nodeid.split("::")[0]
    return path in TESTS + JOURNEYS and not any(name in nodeid for name in NOT_DATES)


def faketime_command(date: str) -> list[str]:
    """The command prefix that starts a process at `date` (libfaketime; with faketime_env)."""
    return ["faketime", "-f", f"@{date}"]


def faketime_env(date: str) -> dict[str, str]:
    env = dict(os.environ)
    site = str(ROOT / "tests" / "faketime_site")
    env.update(
        FAKETIME_DONT_FAKE_MONOTONIC="1",  # timed waits on the real monotonic clock (sitecustomize)
        FAKETIME_DONT_RESET="1",  # child processes go on from the parent's clock, not the date again
        # The library turns on its "monotonic fix" for this glibc by itself. With the monotonic
        # clock left alone that fix shifts every pthread_cond_timedwait deadline by the wall
        # clock's offset, so CPython's GIL wait times out at once and spins: a thread start cost
        # 50-90 ms instead of 0.3 ms, and the pass took 4x the CPU of the same tests unfaked.
        FAKETIME_FORCE_MONOTONIC_FIX="0",
        TANDEM_TEST_START=date.replace(" ", "T") + "+00:00",
        PYTHONPATH=os.pathsep.join(p for p in (site, env.get("PYTHONPATH")) if p),
    )
    return env


def run(date: str, tests: list[str], workers: int) -> tuple[str, int, float, str, str]:
    started = time.monotonic()
    command = [*faketime_command(date), sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["--tb=short", "-n", str(workers)] if workers > 1 else ["-p", "no:xdist", "--tb=short"]
    deselect = " and ".join(f"not {name}" for name in NOT_DATES)
    done = subprocess.run(
        command + ["-k", deselect] + tests,
        cwd=ROOT,
        env=faketime_env(date),
        capture_output=True,
        text=True,
        check=False,
    )
    return date, done.returncode, time.monotonic() - started, done.stdout, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--date", action="append", help="a UTC instant 'YYYY-MM-DD HH:MM:SS' (repeatable)")
    parser.add_argument("--parallel", type=int, default=2, help="dates run at once (default 2)")
    parser.add_argument("tests", nargs="*", help="test paths (default: the money-and-time tests)")
    args = parser.parse_args()
    if shutil.which("faketime") is None:
        print("calendar pass: libfaketime's `faketime` is not installed (make test-deps installs it)")
        return 2
    dates = args.date or list(DATES)
    probe = subprocess.run(
        [*faketime_command(dates[0]), sys.executable, "-c", "import time; print(int(time.time()))"],
        env=faketime_env(dates[0]),
        capture_output=True,
        text=True,
        check=False,
    )
    from datetime import UTC, datetime

    want = int(datetime.fromisoformat(dates[0]).replace(tzinfo=UTC).timestamp())
    if probe.returncode != 0 or abs(int(probe.stdout.strip() or 0) - want) > 60:
        print(f"calendar pass: faketime did not move the clock to {dates[0]}: {probe.stdout}{probe.stderr}")
        return 2
    started = time.monotonic()
    failed = []
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        plan = [
            (d, args.tests or list(TESTS) + (list(JOURNEYS) if d == JOURNEYS_DATE else [])) for d in dates
        ]
        for date, code, seconds, out, err in pool.map(lambda job: run(job[0], job[1], 1), plan):
            # pytest's count is its stdout's last line; stderr may hold the library's own warnings
            # (nested under another faketime, as a clean clone started under one is).
            summary = out.strip().splitlines()[-1] if out.strip() else "(no output)"
            print(f"calendar pass {date} UTC: {summary} ({seconds:.0f} s)", flush=True)
            if code != 0:
                failed.append(date)
                print((out + err)[-20000:], flush=True)
    print(f"calendar pass: {time.monotonic() - started:.0f} s in all")
    if failed:
        print("calendar pass failed on: " + ", ".join(failed))
        return 1
    print(f"calendar pass: {len(dates)} dates green")
    return 0


if __name__ == "__main__":
    sys.exit(main())
