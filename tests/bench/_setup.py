"""What every in-process benchmark does first: import paths, then the functions' environment
on moto. A script runs as `python tests/bench/<name>.py`, which puts tests/bench first on
sys.path (where `connection_requests.py` and friends could shadow an installed module): the
repo root and the layer go first instead, and this folder goes.

    import _setup  # noqa: I001 (sets sys.path: must come before the project's imports)
    _setup.moto_environment()
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

_FIRST = [str(ROOT), str(ROOT / "layers/core/python")]
sys.path[:] = _FIRST + [p for p in sys.path if Path(p or ".").resolve() != HERE and p not in _FIRST]

FAKE_AWS = {
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_DEFAULT_REGION": "eu-west-2",
    "AWS_REGION": "eu-west-2",
    "STAGE": "local",
    "TABLE_NAME": "tandem-local",
}


def moto_environment(log_level: str = "WARNING", *, functions: bool = True, **extra: str) -> None:
    """The functions' environment as template.yaml gives it (as the tests set it, unless
    `functions=False`), fake AWS credentials for moto, and no endpoint override (moto
    intercepts in-process)."""
    if functions:
        from infra.local.template import build_plan

        os.environ.update(build_plan().environment)
    os.environ.update({**FAKE_AWS, "POWERTOOLS_LOG_LEVEL": log_level, **extra})
    os.environ.pop("AWS_ENDPOINT_URL", None)
