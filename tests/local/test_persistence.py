"""The local stack's journal of DynamoDB writes (infra/local/persistence.py), against moto:
what it records, what a restart rebuilds from it, and the crash points it must survive."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from botocore.exceptions import ClientError

from infra.local import persistence
from infra.local.provision import TABLE_KEYS


@pytest.fixture
def dynamodb(aws):
    from tandem.integrations.aws import client

    return client("dynamodb")


@pytest.fixture
def journal(aws, tmp_path: Path) -> Iterator[persistence.Journal]:
    opened = persistence.Journal(tmp_path / "data", aws.table["TableName"])
    opened.open()
    try:
        yield opened
    finally:
        opened.close()


def _scan(dynamodb, table: str) -> list[dict]:
    items = []
    for page in dynamodb.get_paginator("scan").paginate(TableName=table):
        items.extend(page["Items"])
    return sorted(items, key=lambda i: (i["pk"]["S"], i["sk"]["S"]))


def _empty_table(dynamodb, plan) -> None:
    """What a fresh process has before restoring: the provisioned table, no items."""
    dynamodb.delete_table(TableName=plan.table["TableName"])
    dynamodb.create_table(**{k: v for k, v in plan.table.items() if k in TABLE_KEYS})


def _lines(journal: persistence.Journal) -> list[list]:
    return [json.loads(line) for line in journal.journal_path.read_text().splitlines()]


ITEM = {
    "pk": {"S": "BRAND#1"},
    "sk": {"S": "PROFILE"},
    "name": {"S": "Oat & Co ✓"},
    "blob": {"B": b"\x00\xffbinary"},
    "blobs": {"BS": [b"\x01", b"\x02"]},
    "nested": {"M": {"list": {"L": [{"B": b"\x03"}, {"N": "4.5"}, {"NULL": True}]}}},
    "tags": {"SS": ["a", "b"]},
}


def test_writes_are_journalled_and_a_restart_rebuilds_the_same_table(aws, dynamodb, journal):
    table = aws.table["TableName"]
    dynamodb.put_item(TableName=table, Item=ITEM)
    dynamodb.put_item(TableName=table, Item={"pk": {"S": "BRAND#2"}, "sk": {"S": "PROFILE"}, "n": {"N": "1"}})
    dynamodb.update_item(
        TableName=table,
        Key={"pk": {"S": "BRAND#2"}, "sk": {"S": "PROFILE"}},
        UpdateExpression="SET n = n + :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )
    dynamodb.batch_write_item(
        RequestItems={
            table: [
                {"PutRequest": {"Item": {"pk": {"S": "BRAND#3"}, "sk": {"S": "PROFILE"}}}},
                {"DeleteRequest": {"Key": {"pk": {"S": "BRAND#2"}, "sk": {"S": "PROFILE"}}}},
            ]
        }
    )
    before = _scan(dynamodb, table)
    assert len(_lines(journal)) == 5  # one line per acknowledged write; a batch is one per request

    # kill -9: no close, no snapshot. A new process restores snapshot + journal.
    _empty_table(dynamodb, aws)
    again = persistence.Journal(journal.data_dir, table)
    items, replayed = again.restore()
    assert (items, replayed) == (len(before), 5)
    assert _scan(dynamodb, table) == before


def test_a_failed_transaction_journals_nothing_and_a_transaction_journals_once(aws, dynamodb, journal):
    table = aws.table["TableName"]
    key = {"pk": {"S": "ACCOUNT#1"}, "sk": {"S": "BUCKET#1"}}
    dynamodb.put_item(TableName=table, Item={**key, "available": {"N": "1"}})
    spend = {
        "Update": {
            "TableName": table,
            "Key": key,
            "UpdateExpression": "SET available = available - :one",
            "ConditionExpression": "available >= :one",
            "ExpressionAttributeValues": {":one": {"N": "1"}},
        }
    }
    hold = {"Put": {"TableName": table, "Item": {"pk": {"S": "ACCOUNT#1"}, "sk": {"S": "HOLD#1"}}}}
    dynamodb.transact_write_items(TransactItems=[spend, hold])
    with pytest.raises(ClientError):  # no credit left: the whole transaction is refused
        dynamodb.transact_write_items(
            TransactItems=[
                spend,
                {"Put": {**hold["Put"], "Item": {**hold["Put"]["Item"], "sk": {"S": "HOLD#2"}}}},
            ]
        )
    lines = _lines(journal)
    assert len(lines) == 2
    assert [[k["sk"]["S"] for _, k, _ in line] for line in lines] == [["BUCKET#1"], ["BUCKET#1", "HOLD#1"]]
    assert lines[1][0][2]["available"] == {"N": "0"}


def test_a_torn_last_line_from_a_kill_mid_write_is_ignored(aws, dynamodb, journal):
    table = aws.table["TableName"]
    dynamodb.put_item(TableName=table, Item={"pk": {"S": "BRAND#1"}, "sk": {"S": "PROFILE"}})
    with open(journal.journal_path, "ab") as handle:
        handle.write(b'[["tandem-local",{"pk":{"S":"BRAND#9"')  # never acknowledged
    _empty_table(dynamodb, aws)
    items, replayed = persistence.Journal(journal.data_dir, table).restore()
    assert (items, replayed) == (1, 1)


def test_compaction_folds_the_journal_into_the_snapshot(aws, dynamodb, journal):
    table = aws.table["TableName"]
    dynamodb.put_item(TableName=table, Item=ITEM)
    journal.compact()
    assert journal.journal_path.read_bytes() == b""
    assert not journal.compacting_path.exists()
    snapshot = json.loads(journal.table_path.read_text())
    assert [i["sk"]["S"] for i in snapshot] == ["PROFILE"]
    dynamodb.delete_item(TableName=table, Key={"pk": ITEM["pk"], "sk": ITEM["sk"]})
    assert len(_lines(journal)) == 1  # writes after a compaction go to the new journal


def test_a_crash_during_compaction_loses_nothing(aws, dynamodb, journal):
    """Killed after the journal was set aside but before the new snapshot was written: the old
    snapshot, the set-aside journal and the new journal replay to the same table."""
    table = aws.table["TableName"]
    dynamodb.put_item(TableName=table, Item={"pk": {"S": "BRAND#1"}, "sk": {"S": "PROFILE"}})
    old_snapshot = journal.table_path.read_bytes()
    journal.compact()
    journal.table_path.write_bytes(old_snapshot)  # as if the new snapshot never landed ...
    journal.compacting_path.write_text(  # ... and the set-aside journal were still there
        json.dumps(
            [
                [
                    table,
                    {"pk": {"S": "BRAND#1"}, "sk": {"S": "PROFILE"}},
                    {"pk": {"S": "BRAND#1"}, "sk": {"S": "PROFILE"}},
                ]
            ]
        )
        + "\n"
    )
    dynamodb.put_item(TableName=table, Item={"pk": {"S": "BRAND#2"}, "sk": {"S": "PROFILE"}})
    before = _scan(dynamodb, table)
    _empty_table(dynamodb, aws)
    persistence.Journal(journal.data_dir, table).restore()
    assert _scan(dynamodb, table) == before


def test_snapshot_keeps_binaries_and_types_exactly(aws, dynamodb, journal):
    table = aws.table["TableName"]
    dynamodb.put_item(TableName=table, Item=ITEM)
    before = _scan(dynamodb, table)
    journal.close()
    assert journal.journal_path.read_bytes() == b""
    _empty_table(dynamodb, aws)
    items, replayed = persistence.Journal(journal.data_dir, table).restore()
    assert (items, replayed) == (1, 0)
    assert _scan(dynamodb, table) == before
