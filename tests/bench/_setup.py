"""What every benchmark does first: import paths, then the functions' environment on moto
(tests/environment.py, the tests' own bootstrap). A script runs as `python tests/bench/<name>.py`,
which puts tests/bench first on sys.path (where `connection_requests.py` and friends could shadow
an installed module): the repo root and the layer go first instead, and this folder goes.

    import _setup  # noqa: I001 (sets sys.path: must come before the project's imports)
    _setup.moto_environment()
    ...
    with _setup.moto_world() as plan:  # moto started, template.yaml provisioned and applied
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

_FIRST = [str(ROOT), str(ROOT / "layers/core/python")]
sys.path[:] = _FIRST + [p for p in sys.path if Path(p or ".").resolve() != HERE and p not in _FIRST]

from tests.environment import (  # noqa: E402 (the path above first)
    MOTO_CONFIG,
    apply_functions_environment,
    functions_environment,
    moto_world,
)

__all__ = ["MOTO_CONFIG", "ROOT", "apply_functions_environment", "moto_environment", "moto_world"]


moto_environment = functions_environment  # the name the benchmarks call it by
