"""Keep a developer's local data across restarts.

moto holds everything in memory, so the local stack snapshots the DynamoDB table (and the
generated secrets) to .local/data/ every few seconds when it changed, and on shutdown; on the
next start the snapshot is loaded back after provisioning. Writes are atomic (temp + rename).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import boto3

from infra.local.template import REGION


def _convert(value: dict[str, Any], to_text: bool) -> dict[str, Any]:
    """One DynamoDB attribute value with its binaries (the match index) as base64 text, or back."""
    ((kind, inner),) = value.items()
    code = (lambda b: base64.b64encode(b).decode()) if to_text else base64.b64decode
    if kind == "B":
        return {"B": code(inner)}
    if kind == "BS":
        return {"BS": [code(b) for b in inner]}
    if kind == "M":
        return {"M": {k: _convert(v, to_text) for k, v in inner.items()}}
    if kind == "L":
        return {"L": [_convert(v, to_text) for v in inner]}
    return value


def _item_as_text(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _convert(value, True) for name, value in item.items()}


def _item_from_text(item: dict[str, Any]) -> dict[str, Any]:
    return {name: _convert(value, False) for name, value in item.items()}


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class Snapshots:
    def __init__(self, data_dir: Path, table_name: str, endpoint_url: str) -> None:
        self.data_dir = data_dir
        self.table_path = data_dir / "dynamodb.json"
        self.secrets_path = data_dir / "secrets.json"
        self.table_name = table_name
        self.dynamodb = boto3.client("dynamodb", region_name=REGION, endpoint_url=endpoint_url)
        self._last_digest = ""

    @property
    def exists(self) -> bool:
        return self.table_path.exists()

    def load_secrets(self) -> dict[str, str] | None:
        if self.secrets_path.exists():
            return json.loads(self.secrets_path.read_text())
        return None

    def save_secrets(self, values: dict[str, str]) -> None:
        _atomic_write(self.secrets_path, json.dumps(values, indent=2))
        os.chmod(self.secrets_path, 0o600)

    def _scan(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        for page in self.dynamodb.get_paginator("scan").paginate(TableName=self.table_name):
            items.extend(_item_as_text(item) for item in page["Items"])
        items.sort(key=lambda i: (i["pk"]["S"], i["sk"]["S"]))
        return items

    def save(self) -> bool:
        """Write the table if it changed since the last save; True when written."""
        text = json.dumps(self._scan(), separators=(",", ":"))
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest == self._last_digest:
            return False
        _atomic_write(self.table_path, text)
        self._last_digest = digest
        return True

    def restore(self) -> int:
        items = json.loads(self.table_path.read_text())
        for start in range(0, len(items), 25):
            requests = [{"PutRequest": {"Item": _item_from_text(item)}} for item in items[start : start + 25]]
            pending: dict[str, Any] = {self.table_name: requests}
            while pending:
                pending = self.dynamodb.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
        self._last_digest = hashlib.sha256(json.dumps(items, separators=(",", ":")).encode()).hexdigest()
        return len(items)
