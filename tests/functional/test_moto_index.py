"""moto's Queries read their partition (infra/local/moto_index.py): a GSI Query answers what the
table holds after puts, updates that move an item between index keys, deletes, batch writes and
a cancelled transaction that puts an item back where it was."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError


def _dynamodb():
    from tandem.integrations.aws import client

    return client("dynamodb")


def _put(pk: str, gsi1pk: str | None, sk: str = "META", **extra: str) -> None:
    from tandem.config import settings

    item = {"pk": {"S": pk}, "sk": {"S": sk}, **{k: {"S": v} for k, v in extra.items()}}
    if gsi1pk is not None:
        item |= {"gsi1pk": {"S": gsi1pk}, "gsi1sk": {"S": pk}}
    _dynamodb().put_item(TableName=settings().table_name, Item=item)


def _gsi1(value: str) -> list[str]:
    from tandem.config import settings

    answer = _dynamodb().query(
        TableName=settings().table_name,
        IndexName="gsi1",
        KeyConditionExpression="gsi1pk = :v",
        ExpressionAttributeValues={":v": {"S": value}},
    )
    return [item["pk"]["S"] for item in answer["Items"]]


def _move(pk: str, to: str, condition: str | None = None) -> None:
    from tandem.config import settings

    extra = {"ConditionExpression": condition} if condition else {}
    _dynamodb().update_item(
        TableName=settings().table_name,
        Key={"pk": {"S": pk}, "sk": {"S": "META"}},
        UpdateExpression="SET gsi1pk = :to, gsi1sk = :pk",
        ExpressionAttributeValues={":to": {"S": to}, ":pk": {"S": pk}},
        **extra,
    )


def test_gsi_queries_follow_puts_updates_and_deletes(aws):
    from infra.local import moto_index
    from tandem.config import settings

    assert moto_index.is_installed()
    _put("A#1", "LIST#red")
    _put("A#2", "LIST#red")
    _put("A#3", None)
    assert _gsi1("LIST#red") == ["A#1", "A#2"]  # the index is built here, from the table

    _put("A#4", "LIST#red")  # a put after the index exists
    _move("A#1", "LIST#blue")  # an update that moves an item to another index key
    _move("A#3", "LIST#blue")  # an item that had no index key gets one
    assert _gsi1("LIST#red") == ["A#2", "A#4"]
    assert _gsi1("LIST#blue") == ["A#1", "A#3"]

    table = settings().table_name
    _dynamodb().delete_item(TableName=table, Key={"pk": {"S": "A#2"}, "sk": {"S": "META"}})
    _dynamodb().batch_write_item(
        RequestItems={
            table: [
                {
                    "PutRequest": {
                        "Item": {
                            "pk": {"S": "A#5"},
                            "sk": {"S": "META"},
                            "gsi1pk": {"S": "LIST#red"},
                            "gsi1sk": {"S": "A#5"},
                        }
                    }
                },
                {"DeleteRequest": {"Key": {"pk": {"S": "A#4"}, "sk": {"S": "META"}}}},
            ]
        }
    )
    assert _gsi1("LIST#red") == ["A#5"]
    _move("A#1", "LIST#red")  # back where it was (its old bucket entry was pruned)
    assert _gsi1("LIST#red") == ["A#1", "A#5"]


def test_a_cancelled_transaction_leaves_the_index_answering_as_before(aws):
    from tandem.config import settings

    _put("B#1", "LIST#green")
    assert _gsi1("LIST#green") == ["B#1"]
    table = settings().table_name
    with pytest.raises(ClientError, match="TransactionCanceled"):
        _dynamodb().transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table,
                        "Key": {"pk": {"S": "B#1"}, "sk": {"S": "META"}},
                        "UpdateExpression": "SET gsi1pk = :to",
                        "ExpressionAttributeValues": {":to": {"S": "LIST#grey"}},
                    }
                },
                {
                    "ConditionCheck": {
                        "TableName": table,
                        "Key": {"pk": {"S": "MISSING"}, "sk": {"S": "META"}},
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
            ]
        )
    assert _gsi1("LIST#green") == ["B#1"]
    assert _gsi1("LIST#grey") == []


def test_a_base_table_query_reads_its_partition(aws):
    from tandem.config import settings

    _put("C#1", None, sk="X#1")
    _put("C#1", None, sk="X#2")
    _put("C#2", None, sk="X#1")
    answer = _dynamodb().query(
        TableName=settings().table_name,
        KeyConditionExpression="pk = :p AND begins_with(sk, :s)",
        ExpressionAttributeValues={":p": {"S": "C#1"}, ":s": {"S": "X#"}},
    )
    assert [(i["pk"]["S"], i["sk"]["S"]) for i in answer["Items"]] == [("C#1", "X#1"), ("C#1", "X#2")]
