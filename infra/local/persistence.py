"""Keep a developer's local data across restarts, including a `kill -9`.

moto holds everything in memory. The local stack keeps the DynamoDB table in DATA_DIR as

- `dynamodb.json`: a snapshot, every item in DynamoDB's wire format (binaries as base64), and
- `dynamodb.journal`: every write since that snapshot, one JSON line per write operation.

The journal hooks moto's DynamoDB backend in this process (the moto server runs in-process):
after a PutItem, UpdateItem, DeleteItem or TransactWriteItems succeeds, and still under the lock
that serializes moto's DynamoDB operations (infra/local/moto_isolation.py), the new state of
every key it touched (the whole item, or "deleted") is appended and flushed to the kernel, and
fdatasync'ed, before moto answers, so before the API answers its caller. A record is the
state after the write, not the write itself, so replaying is idempotent and never re-runs
anything: no conditions, no Step Functions starts (only DynamoDB items are journalled).
BatchWriteItem reaches the backend as one PutItem/DeleteItem per request; writes nested in a
transaction are journalled once, after the whole transaction succeeded.

At start the snapshot is loaded and the journal replayed over it (a torn last line, from a kill
in the middle of a write that was never acknowledged, is ignored), then compacted into a new
snapshot. Compaction also runs at a clean shutdown and, in a background thread, when the journal
grows past COMPACT_BYTES: under the lock the items are copied and the journal renamed to
`dynamodb.journal.compacting` (new writes start a new journal); the snapshot is written
atomically (temp + fsync + rename) outside the lock, then the old journal is removed. A crash
at any point leaves snapshot + journal(s) that replay to the same table. Nothing runs while
the stack is idle: no periodic rescans.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from infra.local import moto_isolation
from infra.local.template import ACCOUNT, REGION

COMPACT_BYTES = 8 * 1024 * 1024
WRITE_OPERATIONS = ("put_item", "update_item", "delete_item", "transact_write_items")
_MARK = "_tandem_journalled"
_state = threading.local()  # depth of journalled calls on this thread (nested calls are inner)
_journal: Journal | None = None  # the active journal (the local stack has one)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _dumps(value: Any) -> bytes:
    """JSON in DynamoDB's wire format, as moto answers (binaries as base64)."""
    from moto.dynamodb.models.utilities import DynamoJsonEncoder

    return json.dumps(value, cls=DynamoJsonEncoder, separators=(",", ":")).encode()


def _backend() -> Any:
    from moto.backends import get_backend

    return get_backend("dynamodb")[ACCOUNT][REGION]


def _key_of(table: Any, attributes: dict[str, Any]) -> dict[str, Any]:
    key = {table.hash_key_attr: attributes[table.hash_key_attr]}
    if table.range_key_attr:
        key[table.range_key_attr] = attributes[table.range_key_attr]
    return key


def _touched(name: str, arguments: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(table name, key) of every item a write operation may have changed."""
    backend = arguments["self"]
    if name == "transact_write_items":
        touched = []
        for entry in arguments["transact_items"]:
            ((kind, op),) = entry.items()
            if kind in ("Put", "Update", "Delete"):
                table = backend.get_table(op["TableName"])
                touched.append((table.name, _key_of(table, op["Item"] if kind == "Put" else op["Key"])))
        return touched
    table = backend.get_table(arguments["table_name"])
    attributes = arguments["item_attrs"] if name == "put_item" else arguments["key"]
    return [(table.name, _key_of(table, attributes))]


def _current(backend: Any, table_name: str, key: dict[str, Any]) -> dict[str, Any] | None:
    from moto.dynamodb.models.dynamo_type import DynamoType

    table = backend.get_table(table_name)
    hash_value = DynamoType(key[table.hash_key_attr])
    range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
    item = table.get_item(hash_value, range_value)
    return None if item is None else item.to_json()["Attributes"]


def _journalled(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def journalled(*args: Any, **kwargs: Any) -> Any:
        journal = _journal
        if journal is None:
            return original(*args, **kwargs)
        with moto_isolation.LOCK:
            depth = getattr(_state, "depth", 0)
            _state.depth = depth + 1
            try:
                result = original(*args, **kwargs)
            finally:
                _state.depth = depth
            if depth == 0:  # a write inside a transaction is journalled with the transaction
                arguments = signature.bind(*args, **kwargs).arguments
                backend = arguments["self"]
                touched = _touched(name, arguments)
                journal.append([(table, key, _current(backend, table, key)) for table, key in touched])
            return result

    setattr(journalled, _MARK, True)
    return journalled


def install() -> None:
    """Wrap moto's DynamoDB write operations once per process; they journal only while a
    Journal is active (the local stack), so tests and `mock_aws` are unaffected."""
    from moto.dynamodb.models import DynamoDBBackend

    moto_isolation.install()
    for name in WRITE_OPERATIONS:
        original = getattr(DynamoDBBackend, name)
        if not getattr(original, _MARK, False):
            setattr(DynamoDBBackend, name, _journalled(name, original))


class Journal:
    """The table's snapshot and write journal in `data_dir` (see the module docstring)."""

    def __init__(self, data_dir: Path, table_name: str, compact_bytes: int = COMPACT_BYTES) -> None:
        self.data_dir = data_dir
        self.table_name = table_name
        self.table_path = data_dir / "dynamodb.json"
        self.journal_path = data_dir / "dynamodb.journal"
        self.compacting_path = data_dir / "dynamodb.journal.compacting"
        self.secrets_path = data_dir / "secrets.json"
        self.backfills_path = data_dir / "backfills.json"
        self.compact_bytes = compact_bytes
        self._fd: int | None = None
        self._size = 0
        self._compact_wanted = threading.Event()
        self._compactor: threading.Thread | None = None
        self._compact_lock = threading.Lock()  # one compaction at a time
        self._closing = False
        self.errors: list[str] = []

    # ------------------------------------------------------------ secrets

    def load_secrets(self) -> dict[str, str] | None:
        if self.secrets_path.exists():
            return json.loads(self.secrets_path.read_text())
        return None

    def save_secrets(self, values: dict[str, str]) -> None:
        _atomic_write(self.secrets_path, json.dumps(values, indent=2).encode())
        os.chmod(self.secrets_path, 0o600)

    # ------------------------------------------------------------ backfills

    def backfills_done(self) -> set[str]:
        """The backfill jobs already run on this data (none for a data folder from before this
        record: its stack then runs them all once)."""
        if self.backfills_path.exists():
            return set(json.loads(self.backfills_path.read_text()))
        return set()

    def record_backfills(self, names: set[str]) -> None:
        _atomic_write(self.backfills_path, json.dumps(sorted(names), indent=2).encode())

    # ------------------------------------------------------------ start

    @property
    def exists(self) -> bool:
        return self.table_path.exists() or self.journal_path.exists() or self.compacting_path.exists()

    def restore(self) -> tuple[int, int]:
        """Load the snapshot and replay the journal(s) into moto; returns (items now in the
        table, journal records replayed). Call before `open()`: nothing here is journalled."""
        backend = _backend()
        items = json.loads(self.table_path.read_text()) if self.table_path.exists() else []
        outer = getattr(_state, "depth", 0)
        _state.depth = outer + 1  # as if nested: a journal open elsewhere records none of this
        try:
            with moto_isolation.LOCK:
                return self._apply(backend, items)
        finally:
            _state.depth = outer

    def _apply(self, backend: Any, items: list[dict[str, Any]]) -> tuple[int, int]:
        for item in items:
            backend.put_item(self.table_name, item)
        replayed = 0
        for path in (self.compacting_path, self.journal_path):
            for record in self._records(path):
                for table, key, item in record:
                    if table != self.table_name:
                        continue
                    if item is None:
                        backend.delete_item(self.table_name, key)
                    else:
                        backend.put_item(self.table_name, item)
                replayed += 1
        return sum(1 for _ in backend.get_table(self.table_name).all_items()), replayed

    @staticmethod
    def _records(path: Path) -> list[list[Any]]:
        if not path.exists():
            return []
        records = []
        for line in path.read_bytes().split(b"\n"):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                break  # a torn last line: the write it records was never acknowledged
        return records

    def open(self) -> None:
        """Compact what was restored into a fresh snapshot, then journal every write."""
        global _journal
        install()
        with moto_isolation.LOCK:
            _atomic_write(self.table_path, self._snapshot_bytes())
        for path in (self.compacting_path, self.journal_path):
            path.unlink(missing_ok=True)
        self._fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._size = 0
        _fsync_dir(self.data_dir)
        self._compactor = threading.Thread(
            target=self._compact_when_asked, name="journal-compactor", daemon=True
        )
        self._compactor.start()
        _journal = self

    # ------------------------------------------------------------ writes

    def append(self, changes: list[tuple[str, dict[str, Any], dict[str, Any] | None]]) -> None:
        """Called under moto_isolation.LOCK, after a write succeeded and before moto answers."""
        if self._fd is None or not changes:
            return
        line = _dumps([[t, k, i] for t, k, i in changes]) + b"\n"
        os.write(self._fd, line)
        os.fdatasync(self._fd)
        self._size += len(line)
        if self._size >= self.compact_bytes:
            self._compact_wanted.set()

    # ------------------------------------------------------------ compaction

    def _snapshot_bytes(self) -> bytes:
        """The table as snapshot text; call under moto_isolation.LOCK (values are moto's own)."""
        table = _backend().get_table(self.table_name)
        items = [item.to_json()["Attributes"] for item in table.all_items()]
        items.sort(key=lambda i: (i["pk"]["S"], i["sk"]["S"]))
        return _dumps(items)

    def compact(self) -> None:
        """Fold the journal into a new snapshot (see the module docstring for crash safety)."""
        with self._compact_lock:
            with moto_isolation.LOCK:
                if self._fd is None:
                    return
                snapshot = self._snapshot_bytes()
                os.close(self._fd)
                os.replace(self.journal_path, self.compacting_path)
                self._fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                self._size = 0
                _fsync_dir(self.data_dir)
            _atomic_write(self.table_path, snapshot)
            self.compacting_path.unlink(missing_ok=True)

    def _compact_when_asked(self) -> None:
        while self._compact_wanted.wait() and not self._closing:
            self._compact_wanted.clear()
            try:
                self.compact()
            except Exception as exc:  # never let compaction take the stack down; the journal stays
                self.errors.append(str(exc))
                print(f"Compacting the local data failed (the journal keeps every write): {exc}", flush=True)

    def close(self) -> None:
        """Clean shutdown: a final compaction, then stop journalling."""
        global _journal
        self._closing = True
        self._compact_wanted.set()
        self.compact()
        with moto_isolation.LOCK:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            if _journal is self:
                _journal = None
