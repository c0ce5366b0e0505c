"""Numeric ids (brands are numeric in the app's URLs) from an atomic counter item."""

from __future__ import annotations

from tandem.store.models import Counter


def next_id(name: str) -> int:
    counter = Counter.at(name)
    counter.update(actions=[Counter.value.add(1)])
    return int(counter.value)
