"""Fixed-window counters in DynamoDB (atomic ADD), expiring by TTL."""

from __future__ import annotations

import time

from tandem.errors import TooManyRequests
from tandem.store import keys
from tandem.store.models import RateCounter


def hit(scope: str, subject: str, limit: int, window_seconds: int, message: str) -> None:
    """Count one attempt; raise TooManyRequests once `limit` is passed in this window."""
    window = int(time.time()) // window_seconds
    counter = RateCounter(keys.rate_pk(scope, subject.lower()), str(window))
    counter.update(actions=[RateCounter.count.add(1), RateCounter.ttl.set((window + 2) * window_seconds)])
    if counter.count > limit:
        raise TooManyRequests(message)


def reset(scope: str, subject: str, window_seconds: int) -> None:
    window = int(time.time()) // window_seconds
    RateCounter(keys.rate_pk(scope, subject.lower()), str(window)).delete()
