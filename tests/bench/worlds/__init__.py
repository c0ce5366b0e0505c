"""Simulated worlds for the platform simulation, written independently of the matching engine.

A world is loaded by name, `package.module:factory`, and `factory(seed, n, noise)` returns an
object with `name`, `description`, `profiles` (the brand form's payloads), `wants(rows)`,
`mutual(rows)` and `habits(i)` (the protocol: docs/decisions.md, issue 37). The worlds here:

- `tests.bench.worlds.interests:factory`: hidden tastes and customer personas, not in our vocabulary.
- `tests.bench.worlds.geo_size:factory`: shared markets and cities, partner size against each
  brand's goal, collaboration formats both can do.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

WORLDS = ("tests.bench.worlds.interests:factory", "tests.bench.worlds.geo_size:factory")


def load(spec: str) -> Callable[[int, int, float], Any]:
    """The factory named `package.module:factory` (the factory defaults to `factory`)."""
    module_name, _, attr = spec.partition(":")
    if not module_name:
        raise ValueError(f"A world is named package.module:factory, not {spec!r}")
    factory = getattr(importlib.import_module(module_name), attr or "factory", None)
    if not callable(factory):
        raise ValueError(f"{spec!r} names no factory")
    return factory
