"""The fake's in-memory state: objects by kind, events, webhook deliveries, idempotent
responses and the clock offset, optionally saved to one JSON file (atomic replace) so the
local stack keeps its payments across restarts. Callers hold `lock` around every use."""

from __future__ import annotations

import copy
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STATE_VERSION = 1


class Store:
    def __init__(self, path: str | Path | None = None, clock: Callable[[], float] = time.time) -> None:
        """`clock`: the wall clock the test clock's offset is added to (a fixed one makes a
        world built in-process reproducible: tests/unit/stripe_world.py)."""
        self.lock = threading.RLock()
        self.clock = clock
        self.path = Path(path) if path else None
        self._reset()
        if self.path and self.path.exists():
            self._load()

    def _reset(self) -> None:
        self.tables: dict[str, dict[str, dict[str, Any]]] = {}
        self.kind_of: dict[str, str] = {}
        self.seq = 0
        self.clock_offset = 0  # seconds added to the wall clock (test clock)
        self.idempotency: dict[str, dict[str, Any]] = {}
        self.deliveries: dict[str, dict[str, Any]] = {}
        self.queue: list[str] = []  # pending delivery ids, in delivery order
        self.fail_next: list[str] = []  # outcomes forced on the next off-session charges
        self.delivery_paused = False
        self.rules: dict[str, Any] = {"duplicate": None, "delay": None}

    def reset(self) -> None:
        with self.lock:
            self._reset()
            self.save()

    # --- objects ---------------------------------------------------------------------------

    def now(self) -> int:
        return int(self.clock()) + self.clock_offset

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def put(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        table = self.tables.setdefault(kind, {})
        if "_seq" not in obj:
            obj["_seq"] = self.next_seq()
        table[obj["id"]] = obj
        self.kind_of[obj["id"]] = kind
        return obj

    def get(self, kind: str, object_id: str) -> dict[str, Any] | None:
        return self.tables.get(kind, {}).get(object_id)

    def find(self, object_id: str) -> tuple[str, dict[str, Any]] | None:
        kind = self.kind_of.get(object_id)
        if kind is None:
            return None
        obj = self.tables[kind].get(object_id)
        return (kind, obj) if obj is not None else None

    def all(self, kind: str) -> list[dict[str, Any]]:
        """Newest first, as Stripe lists."""
        return sorted(self.tables.get(kind, {}).values(), key=lambda o: o["_seq"], reverse=True)

    def matching(self, kind: str, keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        """`all(kind)` with only the objects `keep` accepts, chosen before sorting: a customer's
        few invoices out of every customer's (the billing proof lists them on every event)."""
        found = [o for o in self.tables.get(kind, {}).values() if keep(o)]
        return sorted(found, key=lambda o: o["_seq"], reverse=True)

    # --- persistence -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "tables": self.tables,
            "seq": self.seq,
            "clock_offset": self.clock_offset,
            "idempotency": self.idempotency,
            "deliveries": self.deliveries,
            "queue": self.queue,
            "fail_next": self.fail_next,
            "delivery_paused": self.delivery_paused,
            "rules": self.rules,
        }

    def save(self) -> None:
        if not self.path:
            return
        data = json.dumps(self.snapshot(), separators=(",", ":"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".fake-stripe-", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def _load(self) -> None:
        assert self.path is not None
        data = json.loads(self.path.read_text(encoding="utf-8"))
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"{self.path}: unknown fake Stripe state version {data.get('version')!r}")
        self.tables = data["tables"]
        self.kind_of = {oid: kind for kind, table in self.tables.items() for oid in table}
        self.seq = data["seq"]
        self.clock_offset = data["clock_offset"]
        self.idempotency = data["idempotency"]
        self.deliveries = data["deliveries"]
        self.queue = data["queue"]
        self.fail_next = data["fail_next"]
        self.delivery_paused = data["delivery_paused"]
        self.rules = data["rules"]
        for delivery_id in self.queue:  # an attempt cut short by the restart is retried
            self.deliveries[delivery_id]["in_flight"] = False


def public(obj: dict[str, Any]) -> dict[str, Any]:
    """A deep copy without the fake's private (underscore) fields."""
    return {k: copy.deepcopy(v) for k, v in obj.items() if not k.startswith("_")}
