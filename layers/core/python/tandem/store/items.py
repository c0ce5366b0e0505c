"""Reading items of different entities together: one BatchGetItem for any keys.

A screen's first call fetches what it can name up front (the caller's user, the selected
brand, its BrandSeen item, the account ...) in one BatchGetItem instead of a GetItem each.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tandem.config import settings
from tandem.integrations.aws import client
from tandem.store.models import Key, TandemModel

BATCH_GET_LIMIT = 100  # keys per BatchGetItem (DynamoDB's limit)


def get_many(wanted: Iterable[tuple[type[TandemModel], Key]], consistent: bool = False) -> dict[Key, Any]:
    """{key: model instance} of the items that exist, each read as the model given with its key.
    BatchGetItem in calls of 100 keys, unprocessed keys asked again."""
    models: dict[Key, type[TandemModel]] = {}
    for model, key in wanted:
        models.setdefault(key, model)
    found: dict[Key, Any] = {}
    table = settings().table_name
    pending = list(models)
    while pending:
        chunk, pending = pending[:BATCH_GET_LIMIT], pending[BATCH_GET_LIMIT:]
        request: dict[str, Any] = {
            table: {
                "Keys": [{"pk": {"S": pk}, "sk": {"S": sk}} for pk, sk in chunk],
                "ConsistentRead": consistent,
            }
        }
        while request:
            answer = client("dynamodb").batch_get_item(RequestItems=request)
            for raw in answer.get("Responses", {}).get(table, []):
                key = (raw["pk"]["S"], raw["sk"]["S"])
                found[key] = models[key].from_raw_data(raw)
            request = answer.get("UnprocessedKeys") or {}
    return found
