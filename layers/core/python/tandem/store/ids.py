"""Numeric ids (brands are numeric in the app's URLs) from an atomic counter item."""

from __future__ import annotations

from tandem.store.models import Counter


def next_id(name: str) -> int:
    return next_ids(name, 1)[0]


def next_ids(name: str, count: int) -> range:
    """`count` consecutive fresh ids in one counter update (ADD count): nobody else can be
    given any of them, as with `count` calls of next_id, but in one round trip."""
    if count < 1:
        raise ValueError("count must be at least 1")
    counter = Counter.at(name)
    counter.update(actions=[Counter.value.add(count)])
    last = int(counter.value)
    return range(last - count + 1, last + 1)
