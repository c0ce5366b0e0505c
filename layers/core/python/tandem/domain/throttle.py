"""Attempt throttling over sliding windows: pure rules, no storage (tandem.services.rate_limit
keeps the counts). Numbers and reasons: docs/decisions.md, "Sign-in throttle".

A window is counted in buckets (one counter per `bucket` seconds); the window at time t is every
bucket that overlaps (t - window, t], so it slides by one bucket at a time and never forgets an
attempt early (it may remember one for up to a bucket longer).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    scope: str  # what is counted, e.g. "login-pair"
    seconds: int  # how far back attempts count
    bucket: int  # resolution: seconds per counter

    def bucket_of(self, now: float) -> int:
        return int(now) // self.bucket * self.bucket

    def buckets(self, now: float, until: float | None = None) -> list[int]:
        """Start times of the buckets in the window at `now`, oldest first; with `until` (a later
        clock reading), on to its bucket too."""
        current = self.bucket_of(now if until is None else max(now, until))
        first = self.bucket_of(now - self.seconds)
        return list(range(first, current + 1, self.bucket))


@dataclass(frozen=True)
class Usage:
    """Attempts counted per bucket start, and the time of the latest."""

    counts: Mapping[int, int]
    last: float | None = None

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class Policy:
    """`free` attempts in the window, then each next one waits `first_delay` seconds after the
    latest, doubling per further attempt up to `max_delay`. With `ceiling`, no attempt at all
    once the window holds that many, until enough of them slide out."""

    window: Window
    free: int | None = None
    first_delay: int = 30
    max_delay: int = 15 * 60
    ceiling: int | None = None

    def delay_after(self, attempts: int) -> int:
        """Seconds to wait after the latest attempt when the window holds `attempts`."""
        if self.free is None or attempts < self.free:
            return 0
        return min(self.first_delay * 2 ** (attempts - self.free), self.max_delay)

    def wait(self, usage: Usage, now: float) -> int:
        """Whole seconds until the next attempt may be made (0: now)."""
        waits = [0]
        delay = self.delay_after(usage.total)
        if delay and usage.last is not None:
            waits.append(math.ceil(usage.last + delay - now))
        if self.ceiling is not None and usage.total >= self.ceiling:
            waits.append(self._until_below_ceiling(usage, now))
        return max(waits)

    def _until_below_ceiling(self, usage: Usage, now: float) -> int:
        assert self.ceiling is not None
        total = usage.total
        for start in sorted(usage.counts):
            total -= usage.counts[start]
            if total < self.ceiling:
                # the bucket leaves the window once it no longer overlaps (t - seconds, t]
                return max(1, math.ceil(start + self.window.bucket + self.window.seconds - now))
        return self.window.seconds


def wait_text(seconds: int) -> str:
    """'1 minute', '8 minutes': a wait as a person reads it, rounded up to whole minutes."""
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"
