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


WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


@pytest.fixture
def written_items(aws) -> Iterator[list[tuple[str, str]]]:
    """Every item written while the test runs, as (operation, sort key), one entry per item: a
    TransactWriteItems or BatchWriteItem counts each item it writes (a GET writes at most one)."""
    from tandem.integrations import aws as integration

    made: list[tuple[str, str]] = []

    def count(model, params, **_):
        name = model.name
        if name not in WRITES:
            return
        if name == "TransactWriteItems":
            for entry in params.get("TransactItems", []):
                (kind, body), *_ = entry.items()
                if kind != "ConditionCheck":
                    made.append((name, _sort_key(body)))
        elif name == "BatchWriteItem":
            for requests in params.get("RequestItems", {}).values():
                for request in requests:
                    body = request.get("PutRequest") or request.get("DeleteRequest") or {}
                    made.append((name, _sort_key(body)))
        else:
            made.append((name, _sort_key(params)))

    integration.register("before-parameter-build.dynamodb", count, "test-written-items")
    yield made
    integration.unregister("before-parameter-build.dynamodb", "test-written-items")


def _sort_key(body: dict) -> str:
    item = body.get("Key") or body.get("Item") or {}
    return str((item.get("sk") or {}).get("S", ""))
