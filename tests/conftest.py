"""Shared fixtures. `aws` gives a moto account provisioned from template.yaml, with state
machines really executed and Lambda handlers run in-process (infra/local)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from infra.local.fake_push import FakePushService
    from infra.local.fake_slack import FakeSlack

# The functions' environment (template.yaml, as the local stack sets it), then credentials and
# region, before anything imports boto3 or tandem: tandem.config checks it at import.
from tests.environment import MOTO_CONFIG, apply_functions_environment, functions_environment

# argon2 at its lowest cost; `production_passwords` for the real one
functions_environment("WARNING", PASSWORD_HASHING="test")

# moto routes a boto3 client's calls through the handler it adds to botocore's built-in handlers
# when it is imported; a client made before that (a unit test loading the API module, which
# starts reading its JWT key at import) would call real AWS in every later test of the worker.
import moto.core.models  # noqa: E402, F401


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "long: one of the suite's longest tests (10-35 s on a busy machine): run first, so that "
        "pytest -n 2 does not end with one worker on it while the other has nothing left",
    )
    config.addinivalue_line(
        "markers",
        "delivery: the test looks at what the notifier delivers (mail, push, Slack), so the "
        "notifier runs inline on every message put on its queue, as moto's event source mapping does",
    )


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--dated-in-calendar-pass",
        action="store_true",
        help="leave the money-and-time tests to the calendar pass, which runs them at its dates "
        "(make test's pytest part: tests/calendar_pass.py runs_here)",
    )


def pytest_collection_modifyitems(config, items) -> None:
    # The longest tests first (each xdist worker sorts the same collection the same way); the
    # rest keep their order. Ending on one of them left a core idle for its whole length
    # (docs/decisions.md 2026-12-07 "the longest tests first").
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if not config.getoption("--dated-in-calendar-pass"):
        return
    from tests.calendar_pass import runs_here

    kept, dated = [], []
    for item in items:
        (dated if runs_here(item.nodeid) else kept).append(item)
    if dated:
        config.hook.pytest_deselected(items=dated)
        items[:] = kept


class _World:
    """One moto account per pytest(-xdist) worker, provisioned from template.yaml once and put
    back as provisioned before each test (infra/local/provision.py `reset_world`)."""

    plan = None
    secret_values: dict[str, str] = {}


@pytest.fixture
def aws(request) -> Iterator[object]:
    from moto import mock_aws

    from infra.local.provision import (
        default_secret_values,
        inline_queue_consumers,
        is_provisioned,
        provision,
        reset_world,
        settle_executions,
    )
    from infra.local.template import build_plan

    mock = mock_aws(config=MOTO_CONFIG)
    fresh = _World.plan is None or not is_provisioned(_World.plan)
    mock.start(reset=fresh)  # a test's own mock_aws or a moto server may have reset moto since
    try:
        if fresh:
            _World.secret_values = default_secret_values(build_plan())
            _World.plan = provision(secret_values=_World.secret_values)
        else:
            reset_world(_World.plan, _World.secret_values)
        plan = _World.plan
        # the notifier is another function in AWS: inline only where a test looks at delivery
        inline_queue_consumers(request.node.get_closest_marker("delivery") is not None)
        apply_functions_environment(plan)  # at the bootstrap's log level, not the template's DEBUG
        yield plan
    finally:
        settle_executions()  # none runs on into the next test, or past the mock to real AWS
        mock.stop(remove_data=False)
    from tandem.config import reset_settings

    reset_settings()  # a test may have changed the environment (monkeypatch undoes it)


@pytest.fixture
def production_passwords(monkeypatch) -> Iterator[None]:
    """Hash at the real argon2 cost, as every deployed stage does."""
    from tandem.config import reset_settings

    monkeypatch.delenv("PASSWORD_HASHING")
    reset_settings()
    yield
    monkeypatch.undo()
    reset_settings()


@pytest.fixture
def fake_push() -> Iterator[FakePushService]:
    """The local push service (infra/local/fake_push.py) on a free loopback port: subscribe a
    browser with `fake_push.subscribe(public_key)`, read what arrived with `fake_push.messages()`."""
    from infra.local.fake_push import FakePushService

    service = FakePushService()
    service.start(0)
    yield service
    service.stop()


@pytest.fixture
def fake_slack() -> Iterator[FakeSlack]:
    """The local Slack (infra/local/fake_slack.py) on a free loopback port. The functional tests'
    `fake_slack` (tests/functional/conftest.py) is this one with the app's Slack secret naming it."""
    from infra.local.fake_slack import FakeSlack

    service = FakeSlack()
    service.start(0)
    yield service
    service.stop()


@pytest.fixture
def faults() -> Iterator[object]:
    """The local fault switches (infra/local/faults.py), none on, the RNG seeded, the faults'
    clock at the wall clock; retry waits (botocore, stripe, the store, Step Functions' Retry)
    move that clock instead of sleeping. Everything is switched off again after the test."""
    from infra.local.faults import FAULTS, simulated_sleeps

    FAULTS.reset()
    try:
        with simulated_sleeps():
            yield FAULTS
    finally:
        FAULTS.reset()


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
