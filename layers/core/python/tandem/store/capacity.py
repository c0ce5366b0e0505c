"""What each DynamoDB call costs in capacity units, computed from item sizes by DynamoDB's rules.

moto does not report ConsumedCapacity, so the day replay (tests/bench/day_replay.py) meters the
calls here, at the one place every DynamoDB call of the process goes out: the shared botocore
client of tandem.integrations.aws (pynamodb's models through store.connection, and the store's
own BatchGetItem and Query). Nothing here runs unless a Meter is installed (the local stack does
it when LOCAL_METER=1 asks; never in a deployed stack).

DynamoDB's rules (developer guide, "Read/write capacity mode" and "Item sizes"):
- an item's size is the sum of its attributes' names and values (strings: UTF-8 bytes; numbers:
  about one byte per two significant digits, plus one; binary: bytes; booleans and null: one;
  lists and maps: 3 bytes plus one per element, plus their elements; sets: their elements);
- a read unit is 4 KB strongly consistent, half a unit eventually consistent (every index read
  is eventually consistent); GetItem and each BatchGetItem item round up on their own, a Query
  or Scan rounds up the total of every item it read (filtered out or not), and a read that finds
  nothing still costs the minimum;
- a write unit is 1 KB, rounded up per item, of the larger of the item before and after (a
  delete: the item deleted); a write whose condition fails still costs its units;
- transactions cost double (TransactWriteItems: 2 write units a KB for every item in it, a
  ConditionCheck too; TransactGetItems: 2 read units per 4 KB).

The sizes of items a call does not carry (an UpdateItem's before and after, a projected read's
whole item) come from `lookup(table, key)`, the caller's view of the table (the local stack reads
moto's); without it the request and the answer are all there is, and updates count the minimum.
"""

from __future__ import annotations

import base64
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.model import OperationModel

READ_UNIT_BYTES = 4096
WRITE_UNIT_BYTES = 1024
KEY_ATTRIBUTES = ("pk", "sk")
INDEX_KEYS = {"gsi1": ("gsi1pk", "gsi1sk"), "gsi2": ("gsi2pk", "gsi2sk"), "gsi3": ("gsi3pk", "gsi3sk")}

Item = dict[str, Any]  # DynamoDB JSON: {"name": {"S": "..."}, ...}
Lookup = Callable[[str, Item], Item | None]


# ---------------------------------------------------------------- sizes


def number_size(text: str | int | float | Decimal) -> int:
    """Bytes of a Number: one per two significant digits (leading and trailing zeros dropped),
    plus one, plus one more when negative."""
    digits = str(Decimal(str(text))).lstrip("-").replace(".", "").split("E")[0].split("e")[0]
    significant = digits.strip("0") or "0"
    return math.ceil(len(significant) / 2) + 1 + (1 if str(text).startswith("-") else 0)


def _binary_size(value: Any) -> int:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return len(value)
    return len(base64.b64decode(value))  # DynamoDB JSON carries binary as base64 text


def value_size(value: dict[str, Any]) -> int:
    """Bytes of one attribute value in DynamoDB JSON."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode("utf-8"))
    if kind == "N":
        return number_size(inner)
    if kind == "B":
        return _binary_size(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(s.encode("utf-8")) for s in inner)
    if kind == "NS":
        return sum(number_size(n) for n in inner)
    if kind == "BS":
        return sum(_binary_size(b) for b in inner)
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in inner)
    if kind == "M":
        return 3 + sum(1 + len(k.encode("utf-8")) + value_size(v) for k, v in inner.items())
    raise ValueError(f"unknown DynamoDB type {kind!r}")


def item_size(item: Item | None) -> int:
    """Bytes of an item: every attribute's name and value."""
    if not item:
        return 0
    return sum(len(name.encode("utf-8")) + value_size(value) for name, value in item.items())


def read_units(size: int, consistent: bool, transactional: bool = False) -> float:
    """Read units of one read of `size` bytes (one item, or a Query's total): 4 KB a unit, the
    minimum for nothing found, half eventually consistent, double in a transaction."""
    units = max(1, math.ceil(size / READ_UNIT_BYTES))
    if transactional:
        return 2.0 * units
    return float(units) if consistent else units / 2


def write_units(size: int, transactional: bool = False) -> float:
    """Write units of one item written (or deleted) of `size` bytes: 1 KB a unit, rounded up,
    double in a transaction."""
    units = max(1, math.ceil(size / WRITE_UNIT_BYTES))
    return 2.0 * units if transactional else float(units)


# ---------------------------------------------------------------- one call


@dataclass
class Cost:
    """What one call read and wrote: units, and every partition key written (the table's and
    each index's whose key the item has), with the write units each took."""

    operation: str
    rcu: float = 0.0
    wcu: float = 0.0
    writes: list[tuple[str, float]] = field(default_factory=list)


def _key(item: Item) -> Item:
    return {k: item[k] for k in KEY_ATTRIBUTES if k in item}


def _partitions(before: Item | None, after: Item | None) -> list[str]:
    """The partitions a write touches: the table's, and each index partition the item enters,
    leaves or stays in (an index write costs the index's own units there)."""
    seen = [("table", (after or before or {}).get("pk", {}).get("S"))]
    for index, (hash_key, _) in INDEX_KEYS.items():
        for version in (before, after):
            value = (version or {}).get(hash_key, {}).get("S")
            if value is not None and (index, value) not in seen:
                seen.append((index, value))
    return [value if where == "table" else f"{where}:{value}" for where, value in seen if value]


def _write(cost: Cost, before: Item | None, after: Item | None, transactional: bool) -> None:
    units = write_units(max(item_size(before), item_size(after)), transactional)
    cost.wcu += units
    for partition in _partitions(before, after):
        cost.writes.append((partition, units))


def _full(item: Item, table: str, lookup: Lookup | None, projected: bool) -> int:
    """The size a read is charged for: the whole item, even when the answer was projected."""
    if projected and lookup is not None and all(k in item for k in KEY_ATTRIBUTES):
        whole = lookup(table, _key(item))
        if whole is not None:
            return item_size(whole)
    return item_size(item)


def cost_of(
    operation: str,
    params: dict[str, Any],
    answer: dict[str, Any],
    before: dict[tuple[str, str, str], Item | None],
    lookup: Lookup | None = None,
) -> Cost:
    """The capacity `operation` consumed, from its request `params`, its parsed `answer` and
    `before` ({(table, pk, sk): item} read just before a write went out, where known)."""
    cost = Cost(operation)
    failed = "Error" in answer

    def prior(table: str, key: Item) -> Item | None:
        return before.get((table, key.get("pk", {}).get("S", ""), key.get("sk", {}).get("S", "")))

    def now(table: str, key: Item) -> Item | None:
        return lookup(table, key) if lookup is not None and not failed else None

    if operation == "GetItem":
        item = answer.get("Item")
        size = _full(item, params["TableName"], lookup, "ProjectionExpression" in params) if item else 0
        cost.rcu = read_units(size, bool(params.get("ConsistentRead")))
    elif operation in ("Query", "Scan"):
        items = answer.get("Items", [])
        sizes = [_full(i, params["TableName"], lookup, "ProjectionExpression" in params) for i in items]
        scanned = int(answer.get("ScannedCount", len(items)))
        filtered = max(0, scanned - len(items))  # read, then left out by a filter: sizes unseen
        total = sum(sizes) + filtered * (sum(sizes) / len(sizes) if sizes else WRITE_UNIT_BYTES)
        consistent = bool(params.get("ConsistentRead")) and "IndexName" not in params
        cost.rcu = read_units(int(total), consistent)
    elif operation == "BatchGetItem":
        for table, wanted in params.get("RequestItems", {}).items():
            found = answer.get("Responses", {}).get(table, [])
            consistent = bool(wanted.get("ConsistentRead"))
            projected = "ProjectionExpression" in wanted
            for item in found:
                cost.rcu += read_units(_full(item, table, lookup, projected), consistent)
            missing = max(0, len(wanted.get("Keys", [])) - len(found))
            cost.rcu += missing * read_units(0, consistent)
    elif operation == "TransactGetItems":
        for entry, found in zip(params.get("TransactItems", []), answer.get("Responses", []), strict=False):
            get = entry["Get"]
            item = found.get("Item")
            size = _full(item, get["TableName"], lookup, "ProjectionExpression" in get) if item else 0
            cost.rcu += read_units(size, True, transactional=True)
    elif operation == "PutItem":
        item = params["Item"]
        old = prior(params["TableName"], _key(item))
        _write(cost, old, None if failed else item, False)
    elif operation in ("UpdateItem", "DeleteItem"):
        table, key = params["TableName"], params["Key"]
        old = prior(table, key)
        _write(cost, old, now(table, key) if operation == "UpdateItem" else None, False)
    elif operation == "BatchWriteItem":
        for table, requests in params.get("RequestItems", {}).items():
            for request in requests:
                if "PutRequest" in request:
                    item = request["PutRequest"]["Item"]
                    _write(cost, prior(table, _key(item)), item, False)
                else:
                    key = request["DeleteRequest"]["Key"]
                    _write(cost, prior(table, key), None, False)
    elif operation == "TransactWriteItems":
        for entry in params.get("TransactItems", []):
            ((kind, op),) = entry.items()
            table = op["TableName"]
            key = _key(op["Item"]) if kind == "Put" else op["Key"]
            old = prior(table, key)
            if kind == "Put":
                _write(cost, old, None if failed else op["Item"], True)
            elif kind == "Update":
                _write(cost, old, now(table, key), True)
            elif kind == "Delete":
                _write(cost, old, None, True)
            else:  # ConditionCheck: charged as a write of the item checked, written nowhere
                cost.wcu += write_units(item_size(old), True)
    return cost


def written_keys(operation: str, params: dict[str, Any]) -> list[tuple[str, Item]]:
    """(table, key) of every item a write call names: their sizes before it are looked up."""
    if operation == "PutItem":
        return [(params["TableName"], _key(params["Item"]))]
    if operation in ("UpdateItem", "DeleteItem"):
        return [(params["TableName"], params["Key"])]
    if operation == "BatchWriteItem":
        return [
            (table, _key(r["PutRequest"]["Item"]) if "PutRequest" in r else r["DeleteRequest"]["Key"])
            for table, requests in params.get("RequestItems", {}).items()
            for r in requests
        ]
    if operation == "TransactWriteItems":
        out = []
        for entry in params.get("TransactItems", []):
            ((kind, op),) = entry.items()
            out.append((op["TableName"], _key(op["Item"]) if kind == "Put" else op["Key"]))
        return out
    return []


# ---------------------------------------------------------------- the meter


@dataclass
class Usage:
    """What the calls made inside one `Meter.scope` cost (one API request, one job)."""

    label: str
    calls: int = 0
    rcu: float = 0.0
    wcu: float = 0.0
    meter_cpu_s: float = 0.0  # thread CPU the meter itself spent (subtracted from the handler's)


class Meter:
    """Counts every DynamoDB call of the process with its capacity units: per scope (the
    innermost `scope()` open on the calling thread, else the label "other"), in totals per
    label, and every partition key written, with its units, by label and wall-clock second."""

    def __init__(self, lookup: Lookup | None = None, clock: Callable[[], float] = time.time) -> None:
        self.lookup = lookup
        self.clock = clock
        self._lock = threading.Lock()
        self._local = threading.local()
        self.totals: dict[str, dict[str, float]] = {}
        self.operations: dict[str, int] = {}
        # (scope label, partition key, second) -> write units: a caller can leave out writes of
        # work that does not follow the clock it studies (the replay: scheduled jobs)
        self.writes: dict[tuple[str, str, int], float] = {}
        self.unmetered = 0  # calls whose cost could not be worked out (the replay fails on any)

    def reset(self) -> None:
        with self._lock:
            self.totals, self.operations, self.writes, self.unmetered = {}, {}, {}, 0

    # ---- scopes
    def scope(self, label: str) -> _Scope:
        return _Scope(self, label)

    def _stack(self) -> list[Usage]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    # ---- botocore hooks
    def install(self, register: Callable[..., None]) -> None:
        """Hook the shared client (tandem.integrations.aws.register)."""
        register("before-parameter-build.dynamodb", self._params, unique_id="tandem-capacity-params")
        register("before-call.dynamodb", self._before, unique_id="tandem-capacity-before")
        register("after-call.dynamodb", self._after, unique_id="tandem-capacity-after")

    def _params(
        self, params: dict[str, Any], model: OperationModel, context: dict[str, Any], **_: Any
    ) -> None:
        context["tandem_capacity_params"] = params

    def _before(self, model: OperationModel, context: dict[str, Any], **_: Any) -> None:
        started = time.thread_time()
        params = context.get("tandem_capacity_params") or {}
        before: dict[tuple[str, str, str], Item | None] = {}
        if self.lookup is not None:
            try:
                written = written_keys(model.name, params)
            except (KeyError, TypeError, ValueError):
                written = []  # counted as unmetered after the call
            for table, key in written:
                before[(table, key.get("pk", {}).get("S", ""), key.get("sk", {}).get("S", ""))] = self.lookup(
                    table, key
                )
        context["tandem_capacity_before"] = before
        self._spent(time.thread_time() - started)

    def _after(
        self, parsed: dict[str, Any], model: OperationModel, context: dict[str, Any], **_: Any
    ) -> None:
        started = time.thread_time()
        params = context.get("tandem_capacity_params")
        try:
            if params is None:  # a call already on its way when the meter was installed
                raise LookupError(model.name)
            cost = cost_of(
                model.name, params, parsed, context.get("tandem_capacity_before") or {}, self.lookup
            )
        except Exception:  # a meter never fails the call it measures: counted instead
            with self._lock:
                self.unmetered += 1
            return
        stack = self._stack()
        label = stack[-1].label if stack else "other"
        second = int(self.clock())
        with self._lock:
            total = self.totals.setdefault(label, {"calls": 0, "rcu": 0.0, "wcu": 0.0})
            total["calls"] += 1
            total["rcu"] += cost.rcu
            total["wcu"] += cost.wcu
            self.operations[model.name] = self.operations.get(model.name, 0) + 1
            for partition, units in cost.writes:
                slot = (label, partition, second)
                self.writes[slot] = self.writes.get(slot, 0.0) + units
        if stack:
            usage = stack[-1]
            usage.calls += 1
            usage.rcu += cost.rcu
            usage.wcu += cost.wcu
        self._spent(time.thread_time() - started)

    def _spent(self, seconds: float) -> None:
        for usage in self._stack():  # every open scope: each subtracts what it did not do itself
            usage.meter_cpu_s += seconds


class _Scope:
    def __init__(self, meter: Meter, label: str) -> None:
        self.meter = meter
        self.usage = Usage(label)

    def __enter__(self) -> Usage:
        self.meter._stack().append(self.usage)
        return self.usage

    def __exit__(self, *_: object) -> None:
        stack = self.meter._stack()
        if stack and stack[-1] is self.usage:
            stack.pop()
