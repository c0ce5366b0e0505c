"""EventBridge schedules for the local stack: the scheduler's jobs run on their template.yaml
schedules, in-process, in one background thread.

Every `Schedule` event of template.yaml (`rate(5 minutes)`, `cron(0 3 * * ? *)`, ...) becomes a
`Job`; the thread sleeps until the earliest one is due (at most MAX_WAIT, so a laptop that slept
or a clock change is noticed within minutes; an idle stack wakes a few times an hour), runs
what is due through the function's handler as Lambda would (`lambda_inprocess.invoke`, the
event is the schedule's Input) and computes the next due time from the clock after the run, so
missed runs are skipped, never queued. A `rate(...)` job first runs one period after the stack
starts (as a new EventBridge rule does); a `cron(...)` job on its next matching minute (UTC).

`GET /__local/jobs` lists them (schedule, next due, last run) and `POST /__local/jobs/<job>`
runs one now (any job the scheduler function knows, scheduled or not) and answers its result.
`POST /__local/clock {"advanceSeconds": n}` moves the jobs' clock ahead (`offset`): every run
then carries {"now": wall clock + offset} in its event, which the scheduler function passes to
the jobs that take a `now` (only on the local stage) — the app's own clock is untouched.
`stop()` wakes the thread and returns at once: a job still running is left to finish or die
with the process, like a Lambda invocation cut short.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from infra.local.template import LocalPlan, ScheduleSpec

MAX_WAIT = 300.0  # seconds: the longest the thread sleeps without looking at the clock again

_RATE = re.compile(r"^rate\(\s*(\d+)\s+(minute|minutes|hour|hours|day|days)\s*\)$")
_CRON = re.compile(r"^cron\((.+)\)$")
_UNITS = {"minute": 60, "hour": 3600, "day": 86400}
_MONTHS = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}
_DAYS = {d: i + 1 for i, d in enumerate("SUN MON TUE WED THU FRI SAT".split())}  # EventBridge: 1 = SUN


class Rate:
    def __init__(self, seconds: int) -> None:
        if seconds <= 0:
            raise ValueError("A rate must be positive")
        self.seconds = seconds

    def first(self, start: float) -> float:
        return start + self.seconds

    def after(self, previous_due: float, now: float) -> float:
        """The next due time on this rate's grid, after `now` (missed runs skipped)."""
        due = previous_due + self.seconds
        if due <= now:
            due += ((now - due) // self.seconds + 1) * self.seconds
        return due


def _field(text: str, low: int, high: int, names: dict[str, int] | None = None) -> frozenset[int] | None:
    """One cron field as the values it allows; None for `*` and `?` (any)."""
    if text in ("*", "?"):
        return None
    values: set[int] = set()
    for part in text.split(","):
        base, _, step_text = part.partition("/")
        step = int(step_text) if step_text else 1
        if base == "*":
            first, last = low, high
        elif "-" in base:
            a, b = base.split("-", 1)
            first, last = _value(a, names), _value(b, names)
        else:
            first = _value(base, names)
            last = high if step_text else first
        if not (low <= first <= high and low <= last <= high) or step < 1:
            raise ValueError(f"Cron field {text!r} is out of range {low}-{high}")
        values.update(range(first, last + 1, step))
    return frozenset(values)


def _value(text: str, names: dict[str, int] | None) -> int:
    if names and text.upper() in names:
        return names[text.upper()]
    if not text.isdigit():
        raise ValueError(f"Cron value {text!r} is not supported locally")
    return int(text)


class Cron:
    """EventBridge's six fields (minutes hours day-of-month month day-of-week year), UTC.
    `L`, `W` and `#` are not used by template.yaml and are refused rather than misread."""

    def __init__(self, text: str) -> None:
        fields = text.split()
        if len(fields) != 6:
            raise ValueError(f"cron({text}) needs 6 fields")
        minute, hour, dom, month, dow, year = fields
        self.minutes = _field(minute, 0, 59)
        self.hours = _field(hour, 0, 23)
        self.days = _field(dom, 1, 31)
        self.months = _field(month, 1, 12, _MONTHS)
        self.weekdays = _field(dow, 1, 7, _DAYS)
        self.years = _field(year, 1970, 2199)

    @staticmethod
    def _ok(allowed: frozenset[int] | None, value: int) -> bool:
        return allowed is None or value in allowed

    def _day_matches(self, day: datetime) -> bool:
        weekday = (day.weekday() + 1) % 7 + 1  # Monday 0 -> 2, Sunday 6 -> 1
        return (
            self._ok(self.years, day.year)
            and self._ok(self.months, day.month)
            and self._ok(self.days, day.day)
            and self._ok(self.weekdays, weekday)
        )

    def next_after(self, now: float) -> float:
        start = datetime.fromtimestamp(now, UTC).replace(second=0, microsecond=0) + timedelta(minutes=1)
        day = start.replace(hour=0, minute=0)
        for _ in range(366 * 5):
            if self._day_matches(day):
                for hour in range(24):
                    if not self._ok(self.hours, hour):
                        continue
                    for minute in range(60):
                        at = day.replace(hour=hour, minute=minute)
                        if at >= start and self._ok(self.minutes, minute):
                            return at.timestamp()
            day += timedelta(days=1)
        raise ValueError("This cron expression is never due in the next five years")

    def first(self, start: float) -> float:
        return self.next_after(start)

    def after(self, previous_due: float, now: float) -> float:
        return self.next_after(max(previous_due, now))


def parse(expression: str) -> Rate | Cron:
    if found := _RATE.match(expression):
        count, unit = int(found.group(1)), found.group(2).rstrip("s")
        return Rate(count * _UNITS[unit])
    if found := _CRON.match(expression):
        return Cron(found.group(1))
    raise ValueError(f"Schedule expression {expression!r} is not supported locally")


@dataclass
class Job:
    spec: ScheduleSpec
    schedule: Rate | Cron
    due: float
    last_run: float | None = None
    last_result: Any = None
    last_error: bool = False
    runs: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def job(self) -> str:
        return str(self.spec.input.get("job") or self.spec.name)


class UnknownJob(LookupError):
    pass


class LocalScheduler:
    """The schedules of `plan`, run by `runner(function_logical_id, event) -> (result, errored)`
    (default: the function's handler in this process). `clock` is wall-clock seconds (tests
    give their own)."""

    def __init__(
        self,
        plan: LocalPlan,
        runner: Callable[[str, dict[str, Any]], tuple[Any, bool]] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.plan = plan
        self.clock = clock
        self._runner = runner or self._invoke
        start = clock()
        self.jobs = [
            Job(spec, schedule, schedule.first(start))
            for spec in plan.schedules
            for schedule in (parse(spec.expression),)
        ]
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.waits: list[float] = []  # how long each sleep was asked to be (tests read it)
        self.offset = 0.0  # seconds the jobs' clock is ahead of the wall clock (POST /__local/clock)

    # ------------------------------------------------------------ running a job

    def _invoke(self, function: str, event: dict[str, Any]) -> tuple[Any, bool]:
        from infra.local import lambda_inprocess

        result, errored, _ = lambda_inprocess.invoke(self.plan.functions[function], event)
        return result, errored

    def _run(self, job: Job) -> tuple[Any, bool]:
        with job.lock:  # one run of a job at a time (the schedule and a run-now meeting)
            try:
                event = dict(job.spec.input)
                if self.offset:
                    event["now"] = int(time.time() + self.offset)
                result, errored = self._runner(job.spec.function, event)
            except Exception as exc:  # a job's failure never stops the schedule
                result, errored = {"errorType": type(exc).__name__, "errorMessage": str(exc)}, True
            job.last_run, job.last_result, job.last_error = self.clock(), result, errored
            job.runs += 1
        if errored:
            print(f"Scheduled job {job.job} failed: {result}", file=sys.stderr, flush=True)
        return result, errored

    def known_jobs(self) -> set[str]:
        """Every job the scheduler function knows (its JOBS), scheduled or not."""
        from infra.local import lambda_inprocess

        names = {job.job for job in self.jobs}
        functions = {job.spec.function for job in self.jobs} or {"SchedulerFunction"}
        for function in functions:
            if function in self.plan.functions:
                module = lambda_inprocess.load_handler_module(self.plan.functions[function])
                names.update(getattr(module, "JOBS", {}))
        return names

    def run_now(self, name: str) -> tuple[Any, bool]:
        """Run one job at once (POST /__local/jobs/<name>); its schedule is unchanged."""
        for job in self.jobs:
            if job.job == name:
                return self._run(job)
        if name not in self.known_jobs():
            raise UnknownJob(name)
        function = next((j.spec.function for j in self.jobs), "SchedulerFunction")
        spec = ScheduleSpec(name=name, function=function, expression="", input={"job": name})
        return self._run(Job(spec, Rate(1), 0.0))

    def status(self) -> list[dict[str, Any]]:
        def iso(t: float | None) -> str | None:
            return datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z") if t else None

        return [
            {
                "job": job.job,
                "schedule": job.spec.expression,
                "nextRun": iso(job.due) if self.running else None,  # manual: none runs by itself
                "lastRun": iso(job.last_run),
                "lastResult": job.last_result,
                "failed": job.last_error,
                "runs": job.runs,
            }
            for job in sorted(self.jobs, key=lambda j: j.due)
        ]

    # ------------------------------------------------------------ the thread

    def run_due(self) -> float:
        """Run every job that is due; returns the seconds until the next one is."""
        for job in self.jobs:
            if self._stop.is_set():
                break
            if job.due <= self.clock():
                self._run(job)
                job.due = job.schedule.after(job.due, self.clock())
        if not self.jobs:
            return MAX_WAIT
        return max(0.0, min(job.due for job in self.jobs) - self.clock())

    def _loop(self) -> None:
        while not self._stop.is_set():
            wait = min(self.run_due(), MAX_WAIT)
            self.waits.append(wait)
            self._wake.wait(wait)
            self._wake.clear()

    def start(self) -> LocalScheduler:
        self._thread = threading.Thread(target=self._loop, name="local-scheduler", daemon=True)
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        """Whether the schedules run by themselves (`start`); without, only `run_now` runs jobs."""
        return self._thread is not None

    def wake(self) -> None:
        """Look at the clock again now (tests that move their clock)."""
        self._wake.set()

    def stop(self, timeout: float = 0.0) -> None:
        """Stop scheduling: no job starts after this; waits at most `timeout` s for the thread
        (a job in progress is not interrupted; the thread is a daemon)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and timeout > 0:
            self._thread.join(timeout)
