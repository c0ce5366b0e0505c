"""Faults on demand in the local stand-ins: the one owner of every fault switch.

The local stand-ins only ever said yes, quickly; AWS and Stripe will not (issue 42). Each
stand-in asks this module, on every call it serves, whether to misbehave instead:

    target     kinds                             asked by
    stripe     down, slow, 500, 429              the fake Stripe's API (/v1/...), per method and path
    ses        throttle, reject                  moto's SES send_email / send_raw_email
    push       5xx (status), 410                 the push stand-in (infra/local/fake_push.py)
    slack      429                               the Slack stand-in's Web API (infra/local/fake_slack.py)
    dynamodb   throttle, capacity, conflict      moto's DynamoDB handler (infra/local/moto_faults.py)
    lambda     raise, timeout                    a function invoked in-process (a Step Functions task)

A fault holds for a share of the calls (a seeded RNG decides which), for a time window on this
module's clock, at most `times` times, and only for calls whose operation contains `match`.
The clock is the wall clock plus every `advance`: a test moves it instead of sleeping, and
`simulated_sleeps()` turns the retry waits of botocore, the stripe library, the store and moto's
Step Functions into moves of it too, so a 5-minute outage takes no time.

Switched by the local control API (GET/POST/DELETE /__local/faults, infra/local/server.py) and
by the pytest fixture `faults` (tests/conftest.py). Never in a deployed stack: this module is
infra/local only, no function package carries it, and only the local patches consult it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS: dict[str, tuple[str, ...]] = {
    "stripe": ("down", "slow", "500", "429"),
    "ses": ("throttle", "reject"),
    "push": ("5xx", "410"),
    "slack": ("429",),
    "dynamodb": ("throttle", "capacity", "conflict"),
    "lambda": ("raise", "timeout"),
}
DEFAULT_SEED = 42
SLOW_SECONDS = 10.0  # the fake Stripe's "slow": this long before it answers


class FaultError(ValueError):
    """A fault asked for that this module does not know (the control API answers 400)."""


@dataclass
class Fault:
    target: str
    kind: str
    share: float = 1.0  # of the calls that match, in [0, 1]
    start: float | None = None  # window on the faults clock (Unix seconds); None: open
    end: float | None = None
    match: str = ""  # a substring of the call's operation ("" matches every call)
    times: int | None = None  # at most this many hits
    status: int | None = None  # push's 5xx status
    retry_after: int | None = None  # stripe 429, push 5xx, slack 429
    delay: float = SLOW_SECONDS  # stripe slow
    id: int = 0
    hits: int = 0
    seen: int = 0  # matching calls asked about while the fault was active
    calls: list[str] = field(default_factory=list, repr=False)  # the operations it hit (last 200)

    def active(self, now: float) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        return (self.start is None or now >= self.start) and (self.end is None or now < self.end)

    def public(self) -> dict[str, Any]:
        found = asdict(self)
        found.pop("calls")
        return found


class Faults:
    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self._lock = threading.RLock()
        self._faults: list[Fault] = []
        self._next_id = 1
        self._rng = random.Random(seed)
        self.offset = 0.0  # seconds the clock is ahead of the wall clock

    # ------------------------------------------------------------ the clock

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise FaultError("The clock only moves ahead")
        with self._lock:
            self.offset += seconds
            return self.now()

    # ------------------------------------------------------------ the switches

    def add(
        self,
        target: str,
        kind: str,
        *,
        share: float = 1.0,
        for_seconds: float | None = None,
        after_seconds: float = 0.0,
        match: str = "",
        times: int | None = None,
        status: int | None = None,
        retry_after: int | None = None,
        delay: float = SLOW_SECONDS,
    ) -> Fault:
        """Switch a fault on: from `after_seconds` from now on the faults clock, for
        `for_seconds` (None: until cleared), on `share` of the matching calls."""
        if kind not in KINDS.get(target, ()):
            raise FaultError(f"Unknown fault {target}/{kind}; known: {_known()}")
        if not 0.0 <= float(share) <= 1.0:
            raise FaultError("share must be between 0 and 1")
        if target == "push" and kind == "5xx" and (status or 503) // 100 != 5:
            raise FaultError("A push 5xx fault's status must be 500-599")
        with self._lock:
            start = self.now() + float(after_seconds)
            fault = Fault(
                target,
                kind,
                share=float(share),
                start=start,
                end=None if for_seconds is None else start + float(for_seconds),
                match=match,
                times=times,
                status=status or (503 if kind == "5xx" else None),
                retry_after=retry_after,
                delay=float(delay),
                id=self._next_id,
            )
            self._next_id += 1
            self._faults.append(fault)
            return fault

    def clear(self, target: str | None = None) -> int:
        """Switch off every fault (of `target`); returns how many."""
        with self._lock:
            kept = [f for f in self._faults if target is not None and f.target != target]
            cleared = len(self._faults) - len(kept)
            self._faults = kept
            return cleared

    def reset(self, seed: int = DEFAULT_SEED) -> None:
        """No fault, the clock back to the wall clock, the RNG from `seed` (between tests)."""
        with self._lock:
            self._faults = []
            self._next_id = 1
            self._rng = random.Random(seed)
            self.offset = 0.0

    def listed(self) -> list[dict[str, Any]]:
        with self._lock:
            return [f.public() for f in self._faults]

    def hits(self, target: str | None = None, kind: str | None = None) -> int:
        with self._lock:
            return sum(
                f.hits
                for f in self._faults
                if (target is None or f.target == target) and (kind is None or f.kind == kind)
            )

    # ------------------------------------------------------------ what the stand-ins ask

    def hit(self, target: str, operation: str = "") -> Fault | None:
        """The fault this call of `target` (doing `operation`) meets, if any: counted as a hit.
        The first active matching fault whose share the RNG draws wins."""
        if not self._faults:  # the usual case: no lock taken, nothing drawn
            return None
        with self._lock:
            now = self.now()
            for fault in self._faults:
                if fault.target != target or fault.match not in operation or not fault.active(now):
                    continue
                fault.seen += 1
                if fault.share >= 1.0 or self._rng.random() < fault.share:
                    fault.hits += 1
                    fault.calls = [*fault.calls[-199:], operation]
                    return fault
            return None


def _known() -> str:
    return ", ".join(f"{t}/{k}" for t, kinds in KINDS.items() for k in kinds)


FAULTS = Faults()


def hit(target: str, operation: str = "") -> Fault | None:
    return FAULTS.hit(target, operation)


# ---------------------------------------------------------------- the control API's body


def from_request(body: dict[str, Any]) -> Fault:
    """POST /__local/faults {"target", "kind", "share"?, "forSeconds"?, "afterSeconds"?,
    "match"?, "times"?, "status"?, "retryAfter"?, "delaySeconds"?}."""
    if not isinstance(body, dict):
        raise FaultError("Send a JSON object")

    def number(name: str, default: Any = None) -> Any:
        value = body.get(name, default)
        if value is None or isinstance(value, int | float) and not isinstance(value, bool):
            return value
        raise FaultError(f"{name} must be a number")

    times, status, retry_after = number("times"), number("status"), number("retryAfter")
    return FAULTS.add(
        str(body.get("target", "")),
        str(body.get("kind", "")),
        share=number("share", 1.0),
        for_seconds=number("forSeconds"),
        after_seconds=number("afterSeconds", 0.0),
        match=str(body.get("match") or ""),
        times=None if times is None else int(times),
        status=None if status is None else int(status),
        retry_after=None if retry_after is None else int(retry_after),
        delay=number("delaySeconds", SLOW_SECONDS),
    )


# ---------------------------------------------------------------- simulated retry waits


class _SimulatedTime:
    """The `time` module as a retrying library sees it: every name is the real one's, but
    `sleep(s)` moves the faults clock by `s` and returns at once; the seconds are counted."""

    def __init__(self, faults: Faults) -> None:
        self._faults = faults
        self.slept = 0.0
        self.sleeps = 0
        self._lock = threading.Lock()

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.slept += float(seconds)
            self.sleeps += 1
        self._faults.advance(max(0.0, float(seconds)))

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def _waiting_modules() -> list[Any]:
    """The modules whose `time.sleep` is a retry's wait: botocore's (AWS calls), the stripe
    library's network retries, moto's Step Functions Retry intervals, and the store's
    transaction retries."""
    import botocore.endpoint
    import stripe._http_client
    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

    from tandem.store import connection

    return [botocore.endpoint, stripe._http_client, retrier_decl, connection]


@contextmanager
def simulated_sleeps(faults: Faults = FAULTS) -> Iterator[_SimulatedTime]:
    """While inside, retry waits move the faults clock instead of the wall clock."""
    shim = _SimulatedTime(faults)
    modules = _waiting_modules()
    originals = [module.time for module in modules]
    for module in modules:
        module.time = shim
    try:
        yield shim
    finally:
        for module, original in zip(modules, originals, strict=True):
            module.time = original
