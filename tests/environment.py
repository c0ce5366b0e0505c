"""The one bootstrap of the functions' world on moto, for the tests (tests/conftest.py) and every
benchmark (tests/bench/_setup.py):

- `functions_environment()`: the functions' environment as template.yaml gives it, fake AWS
  credentials and region for moto, no endpoint override (moto intercepts in-process). Call it
  before anything imports boto3 or tandem: tandem.config checks the environment at import.
- `MOTO_CONFIG`: moto as the tests run it, state machines really executed.
- `apply_functions_environment(plan)`: after provisioning, what a deployed function sees,
  at the log level the bootstrap chose (the template's DEBUG is for deployed stages).
- `moto_world()`: moto started, template.yaml provisioned and its environment applied, for a
  script (a benchmark); the tests' `aws` fixture does the same once per worker and resets it.

This module imports neither boto3 nor tandem at import time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from infra.local.template import LocalPlan

FAKE_AWS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "eu-west-2",
    "AWS_REGION": "eu-west-2",
    "STAGE": "local",
    "TABLE_NAME": "tandem-local",
}

MOTO_CONFIG = {"stepfunctions": {"execute_state_machine": True}}


def functions_environment(log_level: str = "WARNING", *, functions: bool = True, **extra: str) -> None:
    """The functions' environment as template.yaml gives it (unless `functions=False`: a script
    that applies the provisioned plan's own later), fake AWS credentials for moto, the log level,
    `extra` variables, and no endpoint override."""
    if functions:
        from infra.local.template import build_plan

        os.environ.update(build_plan().environment)
    os.environ.update({**FAKE_AWS, "POWERTOOLS_LOG_LEVEL": log_level, **extra})
    os.environ.pop("AWS_ENDPOINT_URL", None)


def apply_functions_environment(plan: LocalPlan) -> None:
    """The provisioned plan's environment, as a function sees it, keeping the log level the
    bootstrap set (the template's DEBUG would bury what a test or a benchmark prints)."""
    from infra.local.runtime import apply_environment

    level = os.environ.get("POWERTOOLS_LOG_LEVEL", "WARNING")
    apply_environment(plan)
    os.environ["POWERTOOLS_LOG_LEVEL"] = level


@contextmanager
def moto_world(*, execute_state_machines: bool = True) -> Iterator[LocalPlan]:
    """moto started in-process, every resource of template.yaml provisioned (Lambda handlers run
    in-process) and the functions' environment applied; moto stops at the end."""
    from moto import mock_aws

    from infra.local.provision import provision

    config = {"stepfunctions": {"execute_state_machine": execute_state_machines}}
    with mock_aws(config=config):
        plan = provision()
        apply_functions_environment(plan)
        yield plan
