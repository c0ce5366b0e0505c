"""moto's DynamoDB and SES ask infra/local/faults.py before each call, and fail as AWS fails.

DynamoDB: `throttle` answers ThrottlingException, `capacity` ProvisionedThroughputExceededException
(both HTTP 400, which botocore retries with backoff and full jitter), `conflict` cancels a
TransactWriteItems with TransactionConflict for every item (as DynamoDB does when another
transaction holds one of them; botocore does not retry it, the store does). The operation a
fault matches is moto's handler method name (put_item, update_item, transact_write_items, ...).

SES: `throttle` answers Throttling (SES's "Maximum sending rate exceeded", which botocore
retries), `reject` MessageRejected (permanent: the notifier's message ends in the DLQ).

Installed with the other moto patches (infra/local/provision.py); with no fault switched on each
call pays one lock-free list check.
"""

from __future__ import annotations

import functools
from typing import Any

from infra.local import faults

_MARK = "_tandem_faults"
DYNAMODB_OPERATIONS = (
    "put_item",
    "update_item",
    "delete_item",
    "get_item",
    "query",
    "scan",
    "batch_get_item",
    "batch_write_item",
    "transact_write_items",
    "transact_get_items",
)
_ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#"


def _dynamodb_error(kind: str, operation: str, handler: Any) -> Exception:
    from moto.dynamodb.exceptions import DynamodbException, TransactionCanceledException

    if kind == "conflict":
        items = len(handler.body.get("TransactItems", [])) or 1
        reason = ("TransactionConflict", "Transaction is ongoing for the item", None)
        return TransactionCanceledException([reason] * items)
    if kind == "capacity":
        return DynamodbException(
            _ERROR_PREFIX + "ProvisionedThroughputExceededException",
            "The level of configured provisioned throughput for the table was exceeded.",
        )
    return DynamodbException(
        "com.amazon.coral.availability#ThrottlingException",
        f"Throughput exceeds the current capacity of your table or index ({operation}).",
    )


def _install_dynamodb() -> None:
    from moto.dynamodb.responses import DynamoHandler

    for operation in DYNAMODB_OPERATIONS:
        original = getattr(DynamoHandler, operation)
        if getattr(original, _MARK, False):
            continue

        def faulty(self: Any, __original: Any = original, __operation: str = operation) -> Any:
            fault = faults.hit("dynamodb", __operation)
            if fault is not None and (fault.kind != "conflict" or __operation == "transact_write_items"):
                raise _dynamodb_error(fault.kind, __operation, self)
            return __original(self)

        functools.update_wrapper(faulty, original)
        setattr(faulty, _MARK, True)
        setattr(DynamoHandler, operation, faulty)


def _install_ses() -> None:
    from moto.ses.exceptions import MessageRejectedError, SesError
    from moto.ses.models import SESBackend

    class Throttling(SesError):
        code = "Throttling"

    for operation in ("send_email", "send_raw_email"):
        original = getattr(SESBackend, operation)
        if getattr(original, _MARK, False):
            continue

        def faulty(
            self: Any, *args: Any, __original: Any = original, __op: str = operation, **kw: Any
        ) -> Any:
            fault = faults.hit("ses", __op)
            if fault is not None and fault.kind == "throttle":
                raise Throttling("Maximum sending rate exceeded.")
            if fault is not None:
                raise MessageRejectedError("Email address is not verified (a rejection switched on locally).")
            return __original(self, *args, **kw)

        functools.update_wrapper(faulty, original)
        setattr(faulty, _MARK, True)
        setattr(SESBackend, operation, faulty)


def install() -> None:
    _install_dynamodb()
    _install_ses()


def is_installed() -> bool:
    from moto.dynamodb.responses import DynamoHandler
    from moto.ses.models import SESBackend

    return bool(getattr(DynamoHandler.put_item, _MARK, False)) and bool(
        getattr(SESBackend.send_raw_email, _MARK, False)
    )
