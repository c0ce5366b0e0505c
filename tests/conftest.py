"""Shared fixtures. `aws` gives a moto account provisioned from template.yaml, with state
machines really executed and Lambda handlers run in-process (infra/local)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

# The functions' environment (template.yaml, as the local stack sets it), then credentials and
# region, before anything imports boto3 or tandem: tandem.config checks it at import.
from infra.local.template import build_plan  # noqa: E402

os.environ.update(build_plan().environment)
os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "eu-west-2",
        "AWS_REGION": "eu-west-2",
        "STAGE": "local",
        "TABLE_NAME": "tandem-local",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }
)
os.environ.pop("AWS_ENDPOINT_URL", None)

MOTO_CONFIG = {"stepfunctions": {"execute_state_machine": True}}


@pytest.fixture
def aws() -> Iterator[object]:
    from moto import mock_aws

    from infra.local.provision import provision
    from infra.local.runtime import apply_environment

    with mock_aws(config=MOTO_CONFIG):
        plan = provision()
        apply_environment(plan)
        os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"  # the template's DEBUG is for deployed stages
        yield plan
    from tandem.config import reset_settings

    reset_settings()  # a test may have changed the environment (monkeypatch undoes it)


def wait_for_execution(execution_arn: str, timeout: float = 180.0) -> dict:
    """Poll a Step Functions execution until it leaves RUNNING."""
    from tandem.integrations.aws import client

    sfn = client("stepfunctions")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        described = sfn.describe_execution(executionArn=execution_arn)
        if described["status"] != "RUNNING":
            return described
        time.sleep(0.05)
    raise AssertionError(f"execution {execution_arn} still running after {timeout}s")
