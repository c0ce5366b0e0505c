"""The store's own failures: a service never imports pynamodb to learn that a write was refused.

`ConditionFailed` is raised by every conditional write the store makes (`Model.save`,
`Model.update`, `Model.delete`, `update_only`, `update_returning_old`, a `transaction()`) when
DynamoDB refused it because an item was not as the condition expected: the claim was already
taken, the state had moved on, a parallel write won. Anything else (throttling that outlasted
the retries, a malformed request) keeps its own exception: that is a fault, not an answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pynamodb.exceptions import DeleteError, PutError, TransactWriteError, UpdateError

_REFUSED = "ConditionalCheckFailedException"
_CANCELLED = "TransactionCanceledException"
# A transaction cancelled only by failed conditions, or by a transaction on the same item that
# was in flight (the other writer got there first: retried, this one would find it changed).
_REFUSED_IN_TRANSACTION = {"ConditionalCheckFailed", "TransactionConflict"}


class ConditionFailed(Exception):
    """A conditional write was refused. For a transaction, `failed_keys` holds the (pk, sk) of
    each item whose own condition failed (empty when a parallel transaction won instead); for a
    single-item write it is empty: the item is the one written."""

    def __init__(self, failed_keys: frozenset[tuple[str, str]] = frozenset()) -> None:
        super().__init__("a condition of the write was not met")
        self.failed_keys = failed_keys


def conflict_only(exc: BaseException) -> bool:
    """A transaction cancelled only because another transaction was in flight on one of its
    items (no condition of its own failed): DynamoDB says to try it again (store/connection.py)."""
    if not isinstance(exc, TransactWriteError) or exc.cause_response_code != _CANCELLED:
        return False
    codes = {r.code for r in (exc.cancellation_reasons or []) if r is not None and r.code != "None"}
    return codes == {"TransactionConflict"}


def _key_of(operation: dict[str, Any]) -> tuple[str, str]:
    item = operation.get("Key") or operation.get("Item") or {}
    return item.get("pk", {}).get("S", ""), item.get("sk", {}).get("S", "")


@contextmanager
def conditions(sent: Sequence[dict[str, Any]] = ()) -> Iterator[None]:
    """Turn pynamodb's refusal of a condition into ConditionFailed; leave every other error.
    `sent`: a transaction's operations in the order DynamoDB received them (its cancellation
    reasons are given in that order)."""
    try:
        yield
    except (PutError, UpdateError, DeleteError) as exc:
        if exc.cause_response_code == _REFUSED:
            raise ConditionFailed() from exc
        raise
    except TransactWriteError as exc:
        if exc.cause_response_code != _CANCELLED:
            raise
        reasons = list(exc.cancellation_reasons or [])
        codes = {r.code for r in reasons if r is not None and r.code != "None"}
        if not codes or not codes <= _REFUSED_IN_TRANSACTION:
            raise
        failed = frozenset(
            _key_of(sent[i])
            for i, r in enumerate(reasons)
            if r is not None and r.code == "ConditionalCheckFailed" and i < len(sent)
        )
        raise ConditionFailed(failed) from exc
