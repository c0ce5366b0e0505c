"""What the day replay measures inside the local stack (tests/bench/day_replay.py), when the
stack is started with LOCAL_METER=1; otherwise nothing is installed and every hook is a no-op.

- Every API request, where the gateway dispatches to the in-process Chalice app
  (infra/local/gateway.py): its route, status, the handler thread's CPU time (time.thread_time
  around the handler, less what the meter itself spent; moto answers on its own threads, so
  DynamoDB's work is not in it, as in Lambda), its wall start and end, and the DynamoDB calls and
  capacity units it made.
- Every other Lambda invocation (state machine tasks, queue consumers, scheduled jobs) the same,
  labelled by function (infra/local/lambda_inprocess.py).
- DynamoDB capacity per call by tandem.store.capacity's Meter on the shared client, the items'
  sizes before and after read from moto's table in this process (under moto_isolation.LOCK).

GET /__local/meter answers what was recorded since the last POST /__local/meter/reset.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

from tandem.store.capacity import Meter  # the layer is on sys.path wherever infra.local runs

METER: Meter | None = None
_lock = threading.Lock()
_requests: list[list[Any]] = []  # [label, status, cpu_ms, start, end, calls, rcu, wcu]
_invocations: dict[str, list[float]] = {}  # function -> [count, cpu_ms total, wall_ms total]
_depth = threading.local()


def _lookup(table: str, key: dict[str, Any]) -> dict[str, Any] | None:
    from infra.local import moto_isolation
    from infra.local.persistence import _backend, _current

    with moto_isolation.LOCK:
        try:
            return _current(_backend(), table, key)
        except Exception:  # an unknown table or key shape: size unknown
            return None


def install() -> Meter:
    """Meter every DynamoDB call of this process from now on."""
    global METER
    from tandem.integrations import aws

    if METER is None:
        METER = Meter(lookup=_lookup)
        METER.install(aws.register)
    return METER


def reset() -> None:
    with _lock:
        _requests.clear()
        _invocations.clear()
    if METER is not None:
        METER.reset()


@contextlib.contextmanager
def request(label: str) -> Iterator[dict[str, Any]]:
    """Around one API request's handler: records it once it ends (`out["status"]` set by the
    caller)."""
    out: dict[str, Any] = {"status": None}
    if METER is None:
        yield out
        return
    _depth.value = getattr(_depth, "value", 0) + 1
    start, cpu = time.time(), time.thread_time()
    with METER.scope(label) as usage:
        try:
            yield out
        finally:
            used = (time.thread_time() - cpu - usage.meter_cpu_s) * 1000
            end = time.time()
            _depth.value -= 1
            row = [label, out["status"], round(used, 3), start, end, usage.calls, usage.rcu, usage.wcu]
            with _lock:
                _requests.append(row)


@contextlib.contextmanager
def invocation(function: str) -> Iterator[None]:
    """Around a Lambda invocation that is not an API request (its own scope and CPU)."""
    if METER is None or getattr(_depth, "value", 0):
        yield
        return
    start, cpu = time.perf_counter(), time.thread_time()
    with METER.scope(function) as usage:
        try:
            yield
        finally:
            used = (time.thread_time() - cpu - usage.meter_cpu_s) * 1000
            with _lock:
                row = _invocations.setdefault(function, [0, 0.0, 0.0])
                row[0] += 1
                row[1] += used
                row[2] += (time.perf_counter() - start) * 1000


def report(top: int = 25, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """Everything recorded since the last reset: every partition's busiest second ("peaks":
    {key: [write units that second, the second, write units in all]}), the `top` hottest, the
    writes made in scopes whose label contains one of `leave_out` left out of both."""
    if METER is None:
        return {"installed": False}
    with _lock:
        requests = [list(r) for r in _requests]
        invocations = {k: {"count": v[0], "cpu_ms": v[1], "wall_ms": v[2]} for k, v in _invocations.items()}
    peak: dict[str, tuple[float, int]] = {}
    total: dict[str, float] = {}
    per_second: dict[tuple[str, int], float] = {}
    for (label, partition, second), units in list(METER.writes.items()):
        if not any(part in label for part in leave_out):  # e.g. the scheduled jobs' writes
            per_second[(partition, second)] = per_second.get((partition, second), 0.0) + units
    for (partition, second), units in per_second.items():
        total[partition] = total.get(partition, 0.0) + units
        if units > peak.get(partition, (0.0, 0))[0]:
            peak[partition] = (units, second)
    hottest = sorted(peak, key=lambda p: (-peak[p][0], p))[:top]
    return {
        "installed": True,
        "requests": requests,
        "invocations": invocations,
        "totals": {k: dict(v) for k, v in METER.totals.items()},
        "operations": dict(METER.operations),
        "unmetered": METER.unmetered,
        "partitions": len(total),
        "hottest": [
            {"key": p, "peak_wcu_per_s": peak[p][0], "at": peak[p][1], "wcu": total[p]} for p in hottest
        ],
        "peaks": {p: [peak[p][0], peak[p][1], total[p]] for p in peak},
    }
