"""Attempt counters for sliding windows (rules in tandem.domain.throttle).

One RateCounter item per subject and bucket, changed only by atomic ADD, expiring by TTL. A
window is read with one BatchGetItem over its buckets, several subjects at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from tandem.domain.throttle import Policy, Usage, Window, wait_text
from tandem.errors import TooManyRequests
from tandem.store.errors import ConditionFailed
from tandem.store.models import RateCounter, update_only

BATCH_GET_LIMIT = 100


def now() -> float:
    """The clock every window is read with (one place, so tests can move it)."""
    return time.time()


def _ttl(window: Window, bucket_start: int) -> int:
    return bucket_start + window.bucket + window.seconds + 3600


def read(subjects: Sequence[tuple[Window, str]], at: float, until: float | None = None) -> list[Usage]:
    """The usage of each (window, subject) at `at` (with `until`, a later clock reading: on to
    its bucket), in one BatchGetItem where they fit."""
    wanted = [[RateCounter.key(w.scope, s, b) for b in w.buckets(at, until)] for w, s in subjects]
    flat = [key for keys in wanted for key in keys]
    found: dict[tuple[str, str], RateCounter] = {}
    for start in range(0, len(flat), BATCH_GET_LIMIT):
        for item in RateCounter.batch_get(flat[start : start + BATCH_GET_LIMIT], consistent_read=True):
            found[(item.pk, item.sk)] = item
    usages = []
    for (window, _), keys in zip(subjects, wanted, strict=True):
        counts: dict[int, int] = {}
        lasts = []
        for bucket, key in zip(window.buckets(at, until), keys, strict=True):
            item = found.get(key)
            if item is not None and int(item.count or 0) > 0:
                counts[bucket] = int(item.count)
                if item.last is not None:
                    lasts.append(float(item.last))
        usages.append(Usage(counts, max(lasts) if lasts else None))
    return usages


def add(window: Window, subject: str, at: float, amount: int = 1) -> int:
    """Count `amount` attempts (negative: give them back) in the current bucket; returns its new count."""
    bucket = window.bucket_of(at)
    counter = RateCounter(*RateCounter.key(window.scope, subject, bucket))
    actions = [RateCounter.count.add(amount), RateCounter.ttl.set(_ttl(window, bucket))]
    if amount > 0:
        actions.append(RateCounter.last.set(at))
    counter.update(actions=actions)
    return int(counter.count)


def _as_counted(window: Window, subject: str, at: float, own: int) -> Usage:
    """The window as an attempt counted at `at` sees it: read after its ADD and on to the bucket
    of a clock read after it, with the attempt's own bucket at `own` (from the ADD's answer).
    Whichever of two attempts reads last sees the other, even when they fell either side of a
    bucket's edge, so a burst across an edge lets no more through than the limit, at worst fewer
    (read only up to `at`'s bucket, 50 sign-ups across a minute's edge let up to 32 of 20 through)."""
    (usage,) = read([(window, subject)], at, until=now())
    counts = {bucket: n for bucket, n in usage.counts.items() if bucket != window.bucket_of(at)}
    if own > 0:
        counts[window.bucket_of(at)] = own
    return Usage(counts, usage.last)


def forget(window: Window, subject: str, at: float) -> None:
    """Drop every attempt of `subject` in the window (one BatchWriteItem)."""
    with RateCounter.batch_write() as batch:
        for bucket in window.buckets(at):
            batch.delete(RateCounter(*RateCounter.key(window.scope, subject, bucket)))


@dataclass(frozen=True)
class Reservation:
    """Attempts counted before the work they guard, so parallel attempts cannot all slip in."""

    entries: tuple[tuple[Window, str], ...]
    at: float

    def give_back(self, *windows: Window) -> None:
        """The attempt did not count after all (it succeeded, or it was refused)."""
        for window, subject in self.entries:
            if not windows or window in windows:
                add(window, subject, self.at, -1)


def reserve(policies: Sequence[tuple[Policy, str]], message: str) -> Reservation:
    """Check, then count, one attempt against each (policy, subject); TooManyRequests when any
    policy says wait (`message` may name the wait as {wait}). Blocked attempts are not counted."""
    at = now()
    subjects = [(p.window, s) for p, s in policies]
    before = read(subjects, at)
    _refuse_if_waiting(policies, before, at, message)
    # One policy after another: an attempt a policy refuses is given back before it is counted
    # against the next, so it never crowds out one the first policy let through (counted against
    # all at once, 50 parallel sign-ins let 4 of their 5 allowed tries through, not 5).
    for index, ((policy, subject), seen) in enumerate(zip(policies, before, strict=True)):
        count = add(policy.window, subject, at)
        held = _as_counted(policy.window, subject, at, count - 1)  # what it held before this one
        # Attempts counted since the first read were made just now (in parallel).
        last = at if held.total > seen.total else seen.last
        wait = policy.wait(Usage(held.counts, last), at)
        if wait > 0:  # the later policies said no wait on the read (_refuse_if_waiting)
            Reservation(tuple(subjects[: index + 1]), at).give_back()
            raise TooManyRequests(message.format(wait=wait_text(wait)))
    return Reservation(tuple(subjects), at)


def _refuse_if_waiting(
    policies: Sequence[tuple[Policy, str]], usages: Sequence[Usage], at: float, message: str
) -> None:
    wait = max(p.wait(u, at) for (p, _), u in zip(policies, usages, strict=True))
    if wait > 0:
        raise TooManyRequests(message.format(wait=wait_text(wait)))


def hit(window: Window, subject: str, limit: int, message: str) -> None:
    """Count one request; TooManyRequests once more than `limit` fall in the sliding window.
    Every request counts, refused ones too (for sign-up and email-sending calls)."""
    at = now()
    if _as_counted(window, subject, at, add(window, subject, at)).total > limit:
        raise TooManyRequests(message)


def take(window: Window, subject: str, limit: int, message: str) -> float:
    """Count one use first (an atomic ADD), then look: TooManyRequests when it is past `limit`
    in the sliding window, and the use is given back (refused uses do not count). Parallel calls
    each see their own count, so exactly `limit` get through (a read then a write let 16 of 20
    reports through). Returns the time it was counted at: `add(window, subject, at, -1)` gives
    the use back when the work it guards is refused."""
    at = now()
    if _as_counted(window, subject, at, add(window, subject, at)).total > limit:
        add(window, subject, at, -1)
        raise TooManyRequests(message)
    return at


def once_per(scope: str, subject: str, seconds: int) -> bool:
    """True at most once per `seconds` for a subject (one conditional UpdateItem)."""
    at = now()
    actions = [RateCounter.count.add(1), RateCounter.last.set(at), RateCounter.ttl.set(int(at) + seconds)]
    condition = RateCounter.last.does_not_exist() | (RateCounter.last <= at - seconds)
    try:
        update_only(RateCounter, RateCounter.key(scope, subject, 0), actions, condition)
    except ConditionFailed:
        return False
    return True
