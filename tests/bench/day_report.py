"""The day replay's arithmetic (tests/bench/day_replay.py): percentiles, figures per member-day,
and the scaling from the replayed members and compressed clock to 100,000 members on a real day.
Pure functions of what the local stack's meter answered (infra/local/meter.py), unit-tested in
tests/unit/test_day_report.py.

Scaling. The replay plays a day of `members` members in `replay_s` seconds: its clock runs
`compression = 86400 / replay_s` times faster, so every rate it sees is `compression` times the
real one for that many members. A rate at 100,000 members on a real day is therefore the replay's
rate / compression * 100,000 / members, for a key or a function every member shares (a partition
of all members' writes of a day, the API's concurrency). Per-brand partitions do not grow with the
member count; scaling them too overstates them (the table says which is which).
Concurrency is Little's law on the replay's own measurements: the in-flight requests of a window
are the sum of the handler wall times in it over its length.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DAY_S = 86400
TARGET_MEMBERS = 100_000
PARTITION_WCU_LIMIT = 1000.0  # DynamoDB's write throughput per partition, units a second
CPU_GOAL_MS = 100.0

# rows of GET /__local/meter "requests": [label, status, cpu_ms, start, end, calls, rcu, wcu]
LABEL, STATUS, CPU_MS, START, END, CALLS, RCU, WCU = range(8)


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100) of `values`; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return float(ordered[rank - 1])


@dataclass(frozen=True)
class RouteFigures:
    route: str
    count: int
    errors: int
    p50: float
    p95: float
    p99: float
    ddb_calls: float  # per request, mean
    rcu: float  # per request, mean
    wcu: float


def routes(rows: Iterable[Sequence]) -> list[RouteFigures]:
    """Per route (method and template path): requests, errors (any answer 400 or over: the
    replay asks nothing that should be refused), CPU ms percentiles, DynamoDB per request."""
    grouped: dict[str, list[Sequence]] = {}
    for row in rows:
        grouped.setdefault(row[LABEL], []).append(row)
    out = []
    for route, its in sorted(grouped.items()):
        cpu = [float(r[CPU_MS]) for r in its]
        out.append(
            RouteFigures(
                route=route,
                count=len(its),
                errors=sum(1 for r in its if r[STATUS] is None or int(r[STATUS]) >= 400),
                p50=percentile(cpu, 50),
                p95=percentile(cpu, 95),
                p99=percentile(cpu, 99),
                ddb_calls=sum(r[CALLS] for r in its) / len(its),
                rcu=sum(r[RCU] for r in its) / len(its),
                wcu=sum(r[WCU] for r in its) / len(its),
            )
        )
    return out


def compression(replay_s: float) -> float:
    return DAY_S / replay_s


def to_target(rate: float, members: int, replay_s: float, shared: bool = True) -> float:
    """A rate seen in the replay as it would be at TARGET_MEMBERS on a real day (see above)."""
    real = rate / compression(replay_s)
    return real * TARGET_MEMBERS / members if shared else real


def peak_in_flight(
    rows: Iterable[Sequence], window_s: float, start: float, end: float
) -> tuple[float, float]:
    """(the most requests in flight on average over any window of `window_s` seconds between
    start and end, when that window starts): each request's wall time, clipped to the window,
    summed, over the window's length."""
    if end <= start:
        return 0.0, start
    count = max(1, math.ceil((end - start) / window_s))
    busy = [0.0] * count
    for row in rows:
        a, b = max(float(row[START]), start), min(float(row[END]), end)
        if b <= a:
            continue
        first, last = int((a - start) // window_s), min(count - 1, int((b - start) // window_s))
        for w in range(first, last + 1):
            lo, hi = start + w * window_s, start + (w + 1) * window_s
            busy[w] += max(0.0, min(b, hi) - max(a, lo))
    best = max(range(count), key=busy.__getitem__)
    return busy[best] / window_s, start + best * window_s


def runs_per_day(schedule: str) -> float:
    """How often a template.yaml schedule runs in a day: rate(n unit), or cron(min hour ...)
    with '*' or a single value in the minute and hour fields, and '?'/'*' or a day of week."""
    text = schedule.strip()
    if text.startswith("rate("):
        amount, unit = text[5:-1].split()
        seconds = {"minute": 60, "hour": 3600, "day": 86400}[unit.rstrip("s")]
        return DAY_S / (int(amount) * seconds)
    if text.startswith("cron("):
        minute, hour, day_of_month, _month, day_of_week = text[5:-1].split()[:5]
        per_hour = 60 if minute == "*" else len(minute.split(","))
        hours = 24 if hour == "*" else len(hour.split(","))
        weekly = day_of_week not in ("*", "?") and day_of_month in ("*", "?")
        return per_hour * hours * (len(day_of_week.split(",")) / 7 if weekly else 1)
    raise ValueError(f"unknown schedule {schedule!r}")


def per_member_day(
    day: dict[str, float], jobs: dict[str, tuple[dict[str, float], float]], members: int, brands: int
) -> dict:
    """DynamoDB calls and units per member-day: the day's (every label: the API, its workflows
    and queue consumers) over the `members` who played it, plus each scheduled job's one measured
    run times its runs a day, over the `brands` it ran for (the stack's demo brands too: a job's
    cost grows with the brands, one a member)."""
    out = {}
    for key in ("calls", "rcu", "wcu"):
        jobs_part = sum(measured.get(key, 0.0) * runs for measured, runs in jobs.values())
        out[key] = day.get(key, 0.0) / members + jobs_part / brands
    return out


def summed(totals: dict[str, dict[str, float]]) -> dict[str, float]:
    out = {"calls": 0.0, "rcu": 0.0, "wcu": 0.0}
    for row in totals.values():
        for key in out:
            out[key] += float(row.get(key, 0.0))
    return out


def is_shared_key(key: str) -> bool:
    """A partition every member's activity writes to (a day's or month's records, a counter),
    not one brand's or account's own (BRAND#, ACCOUNT#, USER#, REQ# and their index keys)."""
    bare = key.split(":", 1)[1] if key.startswith("gsi") else key
    own = (
        "BRAND#",
        "BRAND-FEATURES#",
        "ACCOUNT#",
        "ACCOUNT-USERS#",
        "USER#",
        "REQUEST#",
        "REQ-IN#",
        "REQ-OUT#",
        "EMAIL#",
        "STRIPE_CUSTOMER#",
        "STRIPE_EVENT#",
        "STRIPE_PENDING#",
        "STRIPE_DONE#",
        "RATE#",
        "CODE#",
        "FEATURE#",
        "ISSUE#",
    )  # anything else counts as shared: scaled with the members (the safe side)
    return not bare.startswith(own)
