"""The base every entity shares: the table's key schema and indexes, the one connection, the
registry `bind_models` moves to a new table, the write helpers (`transaction`, `update_only`,
`update_returning_old`, `save_all`), and the id counters. Conditional writes raise the store's
ConditionFailed (store/errors.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from pynamodb.attributes import (
    NumberAttribute,
    UnicodeAttribute,
)

# A write's or a query's condition (`Model.attr.exists()`, `A & B`): a service that passes one
# on names its type from here (tandem.store.base.Condition), not from pynamodb.
from pynamodb.expressions.condition import Condition
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from tandem.config import settings
from tandem.store import keys
from tandem.store.connection import reset_connection, table
from tandem.store.connection import transaction as shared_transaction
from tandem.store.errors import ConditionFailed, conditions

if TYPE_CHECKING:
    from tandem.store.connection import Transaction


Key = tuple[str, str]
_M = TypeVar("_M", bound="TandemModel")


class _Gsi1(GlobalSecondaryIndex):
    class Meta:
        index_name = "gsi1"
        projection = AllProjection()

    gsi1pk = UnicodeAttribute(hash_key=True)
    gsi1sk = UnicodeAttribute(range_key=True)


class _Gsi2(GlobalSecondaryIndex):
    class Meta:
        index_name = "gsi2"
        projection = AllProjection()

    gsi2pk = UnicodeAttribute(hash_key=True)
    gsi2sk = UnicodeAttribute(range_key=True)


class TandemModel(Model):
    """Base for every entity: the table's key schema and the shared connection. The table name
    comes from the settings on first use (bind_models), so importing the models reads no
    environment; each function checks its settings when its own module is imported."""

    class Meta:
        table_name: str | None = None
        region: str | None = None
        host: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)

    @classmethod
    def _get_connection(cls) -> Any:
        """Every model shares one connection and client (store/connection.py)."""
        shared = table()
        if cls.Meta.table_name != shared.table_name:
            bind_models()
        return shared

    @classmethod
    def key(cls, *args: Any) -> Key:
        raise NotImplementedError

    @classmethod
    def at(cls: type[_M], *args: Any) -> _M:
        """The item with only its key (to update or delete it without reading it)."""
        return cls(*cls.key(*args))

    # Writes raise the store's ConditionFailed when their condition is not met (store/errors.py).
    def save(self, *args: Any, **kwargs: Any) -> Any:
        with conditions():
            return super().save(*args, **kwargs)

    def update(self, *args: Any, **kwargs: Any) -> Any:
        with conditions():
            return super().update(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        with conditions():
            return super().delete(*args, **kwargs)

    def put_new(self) -> bool:
        """Write this item only if its key is free: True if written, False if the key was
        already taken (a claim made once, whoever gets there first)."""
        try:
            self.save(condition=type(self).pk.does_not_exist())
        except ConditionFailed:
            return False
        return True

    @classmethod
    def find(cls: type[_M], *args: Any, consistent: bool = False) -> _M | None:
        """The item at `key(*args)`, or None."""
        try:
            return cls.get(*cls.key(*args), consistent_read=consistent)
        except cls.DoesNotExist:
            return None


ALL_MODELS: list[type[TandemModel]] = []


def _register(cls: type[TandemModel]) -> type[TandemModel]:
    ALL_MODELS.append(cls)
    return cls


def bind_models() -> None:
    """Point every model at the current settings' table (after the environment changed)."""
    current = settings()
    reset_connection()
    for cls in [TandemModel, *ALL_MODELS]:
        cls.Meta.table_name = current.table_name
        cls.Meta.region = current.region
        cls.Meta.host = current.endpoint_url
        cls._connection = None


def transaction() -> Transaction:
    """A write transaction (TransactWriteItems) on the process's shared connection
    (store/connection.py). It made a pynamodb Connection of its own, so a botocore session
    and client, loading DynamoDB's JSON model, on every call: 0.3-0.4 s of CPU per sign-up."""
    return shared_transaction()


def update_only(
    model: type[TandemModel], key: tuple[str, str], actions: list, condition: Condition | None = None
) -> None:
    """UpdateItem that asks for nothing back (ReturnValues NONE): `Model.update` always reads
    the whole item back (ALL_NEW), which a write that needs no answer should not pay for.
    Raises ConditionFailed like `Model.update`."""
    with conditions():
        model._get_connection().update_item(
            key[0], key[1], actions=actions, condition=condition, return_values="NONE"
        )


def update_returning_old(
    model: type[TandemModel], key: tuple[str, str], actions: list, condition: Condition | None = None
) -> set[str]:
    """UpdateItem that answers with the names of the attributes the item had before (ReturnValues
    ALL_OLD): what a write needs to know about the item, in the same one call. Raises
    ConditionFailed like `Model.update`."""
    with conditions():
        answer = model._get_connection().update_item(
            key[0], key[1], actions=actions, condition=condition, return_values="ALL_OLD"
        )
    return set((answer or {}).get("Attributes", {}))


def save_all(model: type[_M], items: Iterable[_M]) -> None:
    """Put every item unconditionally with BatchWriteItem (25 a call; pynamodb retries what
    DynamoDB leaves unprocessed). For new items whose keys nobody else can hold (fresh ids)."""
    with model.batch_write() as batch:
        for item in items:
            batch.save(item)


@_register
class Counter(TandemModel):
    value = NumberAttribute(default=0)

    @classmethod
    def key(cls, name: str) -> Key:
        return keys.COUNTER_PK, name
