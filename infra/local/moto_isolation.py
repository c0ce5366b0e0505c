"""Give moto's DynamoDB the isolation real DynamoDB has.

DynamoDB applies each conditional write atomically and runs a transaction as one serializable
step; moto checks conditions and applies changes without any locking, so two threads can both
pass `available >= 1` and overdraw. The local stack and the tests serialize moto's DynamoDB
operations behind one lock (coarser than DynamoDB, never weaker), so concurrency tests exercise
our conditions rather than moto's races. tests/functional/test_credits.py depends on it.

Under that lock a transaction also rolls back item by item: moto deep-copies the whole table
(once per item in the transaction!) before every TransactWriteItems, to put it back if the
transaction is cancelled. With a few hundred brands that copy was most of a transaction's cost
and held the lock all along (a profile of the local stack's first start: 3 s of 20). Since
nothing else runs while the lock is held, copying the items the transaction names is enough.
"""

from __future__ import annotations

import copy
import functools
import threading
from typing import Any

OPERATIONS = (
    "put_item",
    "update_item",
    "delete_item",
    "transact_write_items",
    "get_item",
    "query",
    "scan",
    "batch_get_item",
    "batch_write_item",
    "transact_get_items",
)
_LOCK = threading.RLock()
LOCK = _LOCK  # held by infra/local/persistence.py to journal a write in the order it applied
_MARK = "_tandem_serialized"
_ITEM_ROLLBACK_MARK = "_tandem_item_rollback"
_transaction = threading.local()  # .tables: the tables whose whole-table copy is skipped


class _CopyModule:
    """The `copy` module as moto.dynamodb.models sees it: the whole-table copy that moto's
    transact_write_items takes for its rollback is skipped (the table itself is returned, so
    moto's "rollback", putting it back in place, changes nothing) while `_with_item_rollback`
    runs on this thread; it restores the items instead. Everything else is the real module."""

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value: Any, memo: Any = None) -> Any:
        if any(value is table for table in getattr(_transaction, "tables", ())):
            return value
        return copy.deepcopy(value, memo)


def _item_backups(backend: Any, transact_items: list[dict[str, Any]]) -> dict[tuple[int, Any, Any], Any]:
    """(table, hash, range) -> a copy of the item as it is before the transaction (or None)."""
    from moto.dynamodb.models.dynamo_type import DynamoType

    backups: dict[tuple[int, Any, Any], Any] = {}
    for entry in transact_items:
        for kind, op in entry.items():
            table = backend.tables.get(op.get("TableName")) if isinstance(op, dict) else None
            key = op.get("Item" if kind == "Put" else "Key") if table is not None else None
            if not isinstance(key, dict) or table.hash_key_attr not in key:
                continue  # moto refuses the transaction before this entry writes anything
            if table.range_key_attr and table.range_key_attr not in key:
                continue
            hash_value = DynamoType(key[table.hash_key_attr])
            range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
            slot = (id(table), hash_value, range_value)
            if slot not in backups:
                backups[slot] = (table, copy.deepcopy(table.get_item(hash_value, range_value)))
    return backups


def _restore(backups: dict[tuple[int, Any, Any], Any]) -> None:
    for (_, hash_value, range_value), (table, item) in backups.items():
        if item is None:
            table.delete_item(hash_value, range_value)
        elif range_value is not None:
            table.items[hash_value][range_value] = item
        else:
            table.items[hash_value] = item


def _with_item_rollback(original: Any) -> Any:
    @functools.wraps(original)
    def transact_write_items(
        self: Any, transact_items: list[dict[str, Any]], *args: Any, **kwargs: Any
    ) -> Any:
        tables = [t for t in self.tables.values() if t.stream_shard is None]  # streams: moto's way
        backups = _item_backups(self, transact_items)
        _transaction.tables = tables
        try:
            return original(self, transact_items, *args, **kwargs)
        except BaseException:
            _restore(backups)
            raise
        finally:
            _transaction.tables = ()

    setattr(transact_write_items, _ITEM_ROLLBACK_MARK, True)
    return transact_write_items


def install() -> None:
    """Serialize each operation in the backend and in moto's response handler: the handler
    turns the item into JSON after the backend returns, and another thread's write to the
    same item then broke that ("dictionary changed size during iteration", seen in CI).
    Transactions roll back item by item (inside the lock: see the module docstring)."""
    import moto.dynamodb.models as models
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.responses import DynamoHandler

    with _LOCK:
        if not isinstance(models.copy, _CopyModule):
            models.copy = _CopyModule()  # type: ignore[assignment]
        current = DynamoDBBackend.transact_write_items
        if not getattr(current, _MARK, False) and not getattr(current, _ITEM_ROLLBACK_MARK, False):
            DynamoDBBackend.transact_write_items = _with_item_rollback(current)
    _s3_urls_without_reload()
    from infra.local import moto_index

    moto_index.install(LOCK)  # Queries read their partition (inside the lock taken below)
    for cls in (DynamoDBBackend, DynamoHandler):
        for name in OPERATIONS:
            original = getattr(cls, name)
            if getattr(original, _MARK, False):
                continue

            @functools.wraps(original)
            def serialized(self: Any, *args: Any, __original=original, **kwargs: Any) -> Any:
                with _LOCK:
                    return __original(self, *args, **kwargs)

            setattr(serialized, _MARK, True)
            setattr(cls, name, serialized)


def _s3_urls_without_reload() -> None:
    """moto's S3 backend reloads `moto.s3.urls` on every request it routes (its URL patterns
    follow environment variables). `importlib.reload` is not thread-safe: two threads routing
    S3 calls at once (the test's and the moto server's) once left the module without a spec, and
    every later S3 call in that pytest worker failed with "spec not found for the module
    'moto.s3.urls'" (a clean-clone CI run, 97 errors in one worker). Nothing here changes those
    variables while a process runs, so the module as first imported is the right one."""
    import moto.s3.urls as urls
    from moto.s3.models import S3Backend

    if not getattr(S3Backend._url_module, _MARK, False):
        routed = property(lambda self: urls)
        setattr(routed.fget, _MARK, True)
        S3Backend._url_module = routed  # type: ignore[assignment,method-assign]


def is_installed() -> bool:
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.responses import DynamoHandler

    classes = (DynamoDBBackend, DynamoHandler)
    return all(getattr(getattr(cls, name), _MARK, False) for cls in classes for name in OPERATIONS)
