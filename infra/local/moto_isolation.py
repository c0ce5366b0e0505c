"""Give moto's DynamoDB the isolation real DynamoDB has.

DynamoDB applies each conditional write atomically and runs a transaction as one serializable
step; moto checks conditions and applies changes without any locking, so two threads can both
pass `available >= 1` and overdraw. The local stack and the tests serialize moto's DynamoDB
operations behind one lock (coarser than DynamoDB, never weaker), so concurrency tests exercise
our conditions rather than moto's races. tests/functional/test_credits.py depends on it.
"""

from __future__ import annotations

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


def install() -> None:
    """Serialize each operation in the backend and in moto's response handler: the handler
    turns the item into JSON after the backend returns, and another thread's write to the
    same item then broke that ("dictionary changed size during iteration", seen in CI)."""
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.responses import DynamoHandler

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


def is_installed() -> bool:
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.responses import DynamoHandler

    classes = (DynamoDBBackend, DynamoHandler)
    return all(getattr(getattr(cls, name), _MARK, False) for cls in classes for name in OPERATIONS)
