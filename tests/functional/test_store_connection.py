"""One botocore session and one DynamoDB client for the whole process, shared by every pynamodb
model and every other caller (tandem.integrations.aws, tandem.store.connection)."""

from __future__ import annotations

import threading

import pynamodb
import pytest
from moto import mock_aws


@pytest.fixture
def table():
    from infra.local.template import build_plan
    from tandem.config import reset_settings, settings
    from tandem.integrations.aws import client, reset_clients
    from tandem.store.models import bind_models

    with mock_aws():
        reset_settings()
        reset_clients()
        bind_models()
        spec = {
            k: v
            for k, v in build_plan().table.items()
            if k in ("AttributeDefinitions", "KeySchema", "BillingMode", "GlobalSecondaryIndexes")
        }
        client("dynamodb").create_table(TableName=settings().table_name, **spec)
        yield spec
        reset_clients()


def test_pynamodb_hooks_this_relies_on_are_there():
    """pynamodb is pinned; if these move, store/connection.py must follow."""
    from pynamodb.connection import Connection, TableConnection
    from pynamodb.models import Model

    assert pynamodb.__version__ == "6.1.0"
    assert isinstance(Connection.__dict__["client"], property)
    assert isinstance(Connection.__dict__["session"], property)
    assert hasattr(Model, "_get_connection")
    assert "connection" in TableConnection.__init__.__code__.co_names


def test_every_model_uses_the_one_client(table):
    from tandem.integrations import aws
    from tandem.store.models import ALL_MODELS, Counter, TandemModel

    connections = {id(cls._get_connection()) for cls in [TandemModel, *ALL_MODELS]}
    assert len(connections) == 1
    assert Counter._get_connection().connection.client is aws.client("dynamodb")
    assert Counter._get_connection().connection.session is aws.session()


def test_a_members_first_request_creates_each_client_once(table):
    """Touching every model and two other services makes one client per service, all from the
    one session (before: a session and a client per model class)."""
    from tandem.integrations import aws
    from tandem.store.items import get_many
    from tandem.store.models import ALL_MODELS, Brand, BrandSeen, User

    made: list[str] = []
    session = aws.session()
    original = session.create_client

    def counting(service, *args, **kwargs):
        made.append(service)
        return original(service, *args, **kwargs)

    session.create_client = counting
    try:
        aws.reset_clients()
        for cls in ALL_MODELS:
            assert list(cls.query("nothing-here", limit=1)) == []
        get_many([(User, User.key("u")), (Brand, Brand.key(1)), (BrandSeen, BrandSeen.key(1))])
        aws.client("sqs")
        aws.client("sqs")
    finally:
        del session.create_client
    assert made == ["dynamodb", "sqs"]


def test_clients_made_from_many_threads_at_once_are_one(table):
    from tandem.integrations import aws
    from tandem.store.models import Counter

    aws.reset_clients()
    barrier = threading.Barrier(12)
    seen, errors = [], []

    def work() -> None:
        try:
            barrier.wait()
            seen.append(aws.client("dynamodb"))
            Counter.at(f"c{threading.get_ident()}").update(actions=[Counter.value.add(1)])
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len({id(c) for c in seen}) == 1
    assert sum(1 for _ in Counter.scan()) == 12


def test_bind_models_moves_every_model_to_a_new_table(table, monkeypatch):
    from tandem.config import reset_settings
    from tandem.integrations.aws import client
    from tandem.store.models import Counter, bind_models

    client("dynamodb").create_table(TableName="tandem-other", **table)
    monkeypatch.setenv("TABLE_NAME", "tandem-other")
    reset_settings()
    bind_models()
    try:
        Counter.at("moved").update(actions=[Counter.value.add(1)])
        assert client("dynamodb").scan(TableName="tandem-other")["Count"] == 1
        assert Counter.Meta.table_name == "tandem-other"
    finally:
        monkeypatch.undo()
        reset_settings()
        bind_models()


def test_transactions_from_either_module_use_the_one_client(table):
    """store.models.transaction (sign-up, profile) made a pynamodb Connection, so a session and
    a client, of its own on every call; both entry points now share the one client."""
    from tandem.integrations import aws
    from tandem.store import connection, models

    for made in (models.transaction(), connection.transaction()):
        assert made._connection.client is aws.client("dynamodb")
