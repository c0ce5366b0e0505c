"""The one pynamodb connection every model uses, over the process's one DynamoDB client.

pynamodb (6.1, pinned) gives each model class its own `TableConnection`, whose `Connection`
makes a botocore session per thread and a client per connection: eight models touched on a
member's first request meant eight sessions and clients, each loading DynamoDB's JSON model.
Here every model's `_get_connection()` (overridden in models.TandemModel) answers one
`TableConnection` whose `Connection` hands out the shared client of tandem.integrations.aws.
Its MetaTable describes the whole table (keys and every index), so any model may use it.
tests/unit/test_store_connection.py fails if pynamodb's private hooks move.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from pynamodb.connection import Connection, TableConnection
from pynamodb.connection.base import MetaTable
from pynamodb.transactions import TransactWrite

from tandem.config import settings
from tandem.integrations import aws
from tandem.store.errors import conditions, conflict_only

_lock = threading.Lock()
_table: TableConnection | None = None

INDEXES = {"gsi1": ("gsi1pk", "gsi1sk"), "gsi2": ("gsi2pk", "gsi2sk"), "gsi3": ("gsi3pk", "gsi3sk")}


class SharedConnection(Connection):
    """pynamodb's Connection, but its session and client are the process's shared ones."""

    @property
    def session(self) -> Any:  # type: ignore[override]
        return aws.session()

    @property
    def client(self) -> Any:  # type: ignore[override]
        return aws.client("dynamodb")


def _meta_table(table_name: str) -> MetaTable:
    def schema(hash_key: str, range_key: str) -> list[dict[str, str]]:
        return [
            {"AttributeName": hash_key, "KeyType": "HASH"},
            {"AttributeName": range_key, "KeyType": "RANGE"},
        ]

    names = ["pk", "sk", *(name for pair in INDEXES.values() for name in pair)]
    return MetaTable(
        {
            "TableName": table_name,
            "KeySchema": schema("pk", "sk"),
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in names],
            "GlobalSecondaryIndexes": [
                {"IndexName": index, "KeySchema": schema(*pair)} for index, pair in INDEXES.items()
            ],
        }
    )


def table() -> TableConnection:
    """The table's connection, shared by every model (made once per table name)."""
    global _table
    current = _table
    table_name = settings().table_name
    if current is not None and current.table_name == table_name:
        return current
    with _lock:
        if _table is None or _table.table_name != table_name:
            made = TableConnection(table_name, region=settings().region, host=settings().endpoint_url)
            made.connection = SharedConnection(region=settings().region, host=settings().endpoint_url)
            made.connection.add_meta_table(_meta_table(table_name))
            _table = made
        return _table


CONFLICT_RETRIES = 3  # a transaction cancelled by another one in flight on its items: tried again
CONFLICT_BACKOFF = 0.05  # seconds, doubled per retry, full jitter


class Transaction(TransactWrite):
    """pynamodb's write transaction whose refusal is the store's ConditionFailed (errors.py).
    A cancellation by a conflicting transaction alone is retried (CONFLICT_RETRIES, with
    backoff and full jitter: the other writer is done within milliseconds), so a member's send
    or accept is not refused for a race it did not lose; one still conflicting after that is
    ConditionFailed as before (the other writer got there first)."""

    def _commit(self) -> Any:
        # DynamoDB gets them in this order (pynamodb's TransactWrite._commit), and answers a
        # cancellation with one reason per item in the same order
        sent = [*self._condition_check_items, *self._delete_items, *self._put_items, *self._update_items]
        with conditions(sent):
            for retry in range(CONFLICT_RETRIES + 1):
                try:
                    return super()._commit()
                except Exception as exc:
                    if retry == CONFLICT_RETRIES or not conflict_only(exc):
                        raise
                time.sleep(random.uniform(0, CONFLICT_BACKOFF * 2**retry))
            raise AssertionError("unreachable")  # pragma: no cover


def transaction() -> Transaction:
    """A write transaction on the shared connection (`with transaction() as tx:`); raises
    ConditionFailed when a condition of one of its items is not met."""
    return Transaction(connection=table().connection)


def reset_connection() -> None:
    """Forget the table connection (the environment changed: tests, the local stack)."""
    global _table
    with _lock:
        _table = None
