"""`make bench` runs each tests/bench script as `python tests/bench/<name>.py`, which puts
tests/bench first on sys.path: a script named like a module it imports (requests, moto, ...)
would shadow it and the benchmark would die at import (it did, with `requests.py`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_no_benchmark_script_shadows_an_installed_module():
    scripts = [p.stem for p in BENCH.glob("*.py") if p.stem != "__init__"]
    assert scripts
    shadowing = [name for name in scripts if importlib.util.find_spec(name) is not None]
    assert shadowing == []
