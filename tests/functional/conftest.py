"""Fixtures shared by the functional tests (the `aws` fixture itself, and the bare `fake_push`
and `fake_slack`, are in tests/conftest.py).

Helpers that are plain functions (`Api`, `subscribe`, `sent_mail`, `wait_for_run`) live in helpers.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.functional.helpers import Api, point_slack_at

if TYPE_CHECKING:
    from infra.local.fake_slack import FakeSlack


@pytest.fixture
def api(aws) -> Api:
    """The API as API Gateway calls it, on a fresh moto account provisioned from template.yaml."""
    return Api(aws)


@pytest.fixture
def fake_slack(aws, fake_slack: FakeSlack) -> FakeSlack:
    """Here the local Slack is the one the app's Slack secret names (tests/conftest.py starts it)."""
    point_slack_at(fake_slack)
    return fake_slack


@pytest.fixture
def operations(aws) -> Iterator[list[str]]:
    """Every DynamoDB operation made while the test runs, by name (a screen's load makes at
    most three)."""
    from tandem.integrations import aws as integration

    made: list[str] = []
    integration.register(
        "before-call.dynamodb", lambda model, **_: made.append(model.name), "test-operations"
    )
    yield made
    integration.unregister("before-call.dynamodb", "test-operations")
