"""Index moto's DynamoDB items by hash key, so a Query reads its partition, not the table.

moto 5.2.1 answers every Query by walking every item of the table: a base-table Query compares
each item's hash key, a GSI Query each item's index attributes. With the thousands of items of
the 1,000-event billing proof that was 87 ms a query (and it held moto_isolation's lock all
along). DynamoDB reads one partition: so does this, and moto's own Query code still does the
rest (key conditions, sorting, paging, filters, projections) on the items it is given.

- A base-table (or local index) Query is given the items under its hash key (`table.items`).
- A GSI Query is given the items whose index hash key had that value: each table keeps
  {index name: {hash value: primary keys}}, built from the whole table on its first GSI Query
  and then kept by the backend's put_item / update_item / delete_item (which TransactWriteItems,
  BatchWriteItem and infra/local/persistence.py's reload all go through). A key stays in a
  bucket after its item moves or goes (a cancelled transaction can put an item back where it
  was without a write of its own): the bucket is a superset, moto's own condition check drops
  what no longer matches, and a Query prunes what it found gone or moved.

`TANDEM_MOTO_INDEX_CHECK=1` answers every Query both ways and fails on any difference (run the
functional tests with it after changing this file).
"""

from __future__ import annotations

import functools
import os
from typing import Any

_MARK = "_tandem_indexed"
_INDEX = "_tandem_gsi_keys"  # on each moto Table: {index name: {hash DynamoType: {primary key}}}
PrimaryKey = tuple[Any, Any]  # (hash DynamoType, range DynamoType or None)


def _gsi_hash_attributes(table: Any) -> dict[str, str]:
    """{GSI name: its hash attribute} for GSIs with a single hash key (all of Tandem's)."""
    found = {}
    for index in table.global_indexes or []:
        hashes = [key["AttributeName"] for key in index.schema if key["KeyType"] == "HASH"]
        if len(hashes) == 1:
            found[index.name] = hashes[0]
    return found


def _primary_key(table: Any, item: Any) -> PrimaryKey:
    return item.hash_key, item.range_key if table.range_key_attr else None


def _add(table: Any, index: dict[str, dict[Any, set[PrimaryKey]]], item: Any) -> None:
    key = _primary_key(table, item)
    for name, attribute in _gsi_hash_attributes(table).items():
        value = item.attrs.get(attribute)
        if value is not None:
            index.setdefault(name, {}).setdefault(value, set()).add(key)


def _index_of(table: Any) -> dict[str, dict[Any, set[PrimaryKey]]]:
    index = table.__dict__.get(_INDEX)
    if index is None:
        index = {}
        for item in _every_item(table):
            _add(table, index, item)
        setattr(table, _INDEX, index)
    return index


def forget(table: Any) -> None:
    """Drop the table's GSI buckets (its items were cleared in place: reset_world); the next GSI
    Query builds them again from what the table then holds."""
    table.__dict__.pop(_INDEX, None)


def _every_item(table: Any) -> list[Any]:
    items = []
    for held in table.items.values():
        items.extend(held.values() if table.range_key_attr else [held])
    return items


def _item_at(table: Any, key: PrimaryKey) -> Any:
    hash_value, range_value = key
    held = table.items.get(hash_value)
    if held is None:
        return None
    return held.get(range_value) if table.range_key_attr else held


def _partition(table: Any, hash_value: Any) -> list[Any]:
    held = table.items.get(hash_value)  # .get: table.items is a defaultdict
    if held is None:
        return []
    return list(held.values()) if table.range_key_attr else [held]


def _gsi_candidates(table: Any, index_name: str, attribute: str, value: Any) -> list[Any]:
    bucket = _index_of(table).get(index_name, {}).get(value)
    if not bucket:
        return []
    items, gone = [], []
    for key in bucket:
        item = _item_at(table, key)
        current = item.attrs.get(attribute) if item is not None else None
        if current is not None and current == value:
            items.append(item)
        else:
            gone.append(key)
    bucket.difference_update(gone)
    return items


def _candidates(table: Any, hash_key: Any, index_name: str | None, conditions: list | None) -> list | None:
    """The items a Query can match, or None when this module does not know (moto walks all)."""
    if index_name is None:
        return _partition(table, hash_key) if hash_key is not None else None
    if any(index.name == index_name for index in table.indexes or []):  # local: the table's hash key
        return _partition(table, hash_key) if hash_key is not None else None
    attribute = _gsi_hash_attributes(table).get(index_name)
    if attribute is None or not conditions or len(conditions) != 1 or conditions[0][0] != attribute:
        return None
    return _gsi_candidates(table, index_name, attribute, conditions[0][1])


_lock: Any = None  # moto_isolation's lock, given to install()


def _indexed_query(original: Any) -> Any:
    check = os.environ.get("TANDEM_MOTO_INDEX_CHECK") == "1"

    @functools.wraps(original)
    def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        with _lock:  # the buckets change under writes: one thread at a time, as moto_isolation does
            return _query(self, hash_key, *args, **kwargs)

    def _query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
        candidates = _candidates(self, hash_key, index_name, kwargs.get("hash_key_conditions"))
        if candidates is None:
            return original(self, hash_key, *args, **kwargs)
        self.all_items = lambda: candidates  # moto's query walks all_items(); give it these
        try:
            answer = original(self, hash_key, *args, **kwargs)
        finally:
            del self.all_items
        if check:
            full = original(self, hash_key, *args, **kwargs)
            if [i.to_json() for i in answer[0]] != [i.to_json() for i in full[0]] or answer[1:] != full[1:]:
                raise AssertionError(f"moto_index: Query on {index_name or 'table'} differs from moto's")
        return answer

    setattr(query, _MARK, True)
    return query


def _table_key(table: Any, key: dict[str, Any]) -> PrimaryKey | None:
    from moto.dynamodb.models.dynamo_type import DynamoType

    if not isinstance(key, dict) or table.hash_key_attr not in key:
        return None
    range_value = None
    if table.range_key_attr:
        if table.range_key_attr not in key:
            return None
        range_value = DynamoType(key[table.range_key_attr])
    return DynamoType(key[table.hash_key_attr]), range_value


def _indexing_write(original: Any, key_argument: str) -> Any:
    @functools.wraps(original)
    def write(self: Any, table_name: str, *args: Any, **kwargs: Any) -> Any:
        with _lock:
            try:
                return original(self, table_name, *args, **kwargs)
            finally:  # a failed condition changed nothing; indexing the item again is harmless
                _reindex(self, table_name, args[0] if args else kwargs.get(key_argument))

    setattr(write, _MARK, True)
    return write


def _reindex(backend: Any, table_name: str, given: Any) -> None:
    table = backend.tables.get(table_name)
    if table is not None and _INDEX in table.__dict__:
        key = _table_key(table, given)
        item = _item_at(table, key) if key is not None else None
        if item is not None:
            _add(table, table.__dict__[_INDEX], item)


def install(lock: Any) -> None:
    """`lock`: the one lock moto_isolation serializes DynamoDB's operations with."""
    global _lock
    _lock = lock
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    if not getattr(Table.query, _MARK, False):
        Table.query = _indexed_query(Table.query)  # type: ignore[method-assign]
    for name, argument in (("put_item", "item_attrs"), ("update_item", "key"), ("delete_item", "key")):
        current = getattr(DynamoDBBackend, name)
        if not getattr(current, _MARK, False):
            setattr(DynamoDBBackend, name, _indexing_write(current, argument))


def is_installed() -> bool:
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    return getattr(Table.query, _MARK, False) and all(
        getattr(getattr(DynamoDBBackend, name), _MARK, False)
        for name in ("put_item", "update_item", "delete_item")
    )
