"""moto with infra/local/moto_dispatch.py installed still runs every rule of an update
expression (each is one of the traversers whose processing map is now built once, on a copy of
the parsed expression now kept per text) and still dispatches every action: the answers and
refusals are moto's own, the second time an expression is used as the first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from infra.local import moto_dispatch


@pytest.fixture
def table() -> Iterator[Any]:
    moto_dispatch.install()
    with mock_aws():
        ddb = boto3.client("dynamodb", region_name="eu-west-2")
        ddb.create_table(
            TableName="t",
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        ddb.put_item(TableName="t", Item={"pk": {"S": "A#1"}, "sk": {"S": "META"}, "name": {"S": "Oat"}})
        yield ddb


KEY = {"pk": {"S": "A#1"}, "sk": {"S": "META"}}


def _update(ddb: Any, expression: str, values: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    extra = {"ExpressionAttributeValues": values} if values else {}
    return ddb.update_item(
        TableName="t", Key=KEY, UpdateExpression=expression, ReturnValues="ALL_NEW", **extra, **more
    )


def test_every_kind_of_update_applies(table: Any) -> None:
    assert moto_dispatch.is_installed()
    _update(
        table,
        "SET credits = :n, tags = :t, seen = list_append(if_not_exists(seen, :e), :s)",
        {
            ":n": {"N": "6"},
            ":t": {"SS": ["a"]},
            ":e": {"L": []},
            ":s": {"L": [{"S": "x"}]},
        },
    )
    answer = _update(
        table,
        "ADD credits :one, tags :b REMOVE #n",
        {":one": {"N": "-1"}, ":b": {"SS": ["b"]}},
        ExpressionAttributeNames={"#n": "name"},
    )["Attributes"]
    assert answer["credits"] == {"N": "5"} and sorted(answer["tags"]["SS"]) == ["a", "b"]
    assert answer["seen"] == {"L": [{"S": "x"}]} and "name" not in answer


@pytest.mark.parametrize(
    ("expression", "values", "refusal"),
    [
        ("SET pk = :v", {":v": {"S": "B#2"}}, "part of the key"),  # UpdateHashRangeKeyValidator
        ("SET a.b = :v", {":v": {"S": "x"}}, "document path"),  # NoneExistingPathChecker
        ("SET n = :v", None, ":v"),  # ExpressionAttributeValueProcessor: an unknown value
        ("ADD #n :v", {":v": {"N": "1"}}, "incorrect data type"),  # TypeMismatchValidator (ADD to a string)
        ("SET x = :v REMOVE x", {":v": {"S": "x"}}, "overlap"),  # OverlappingPathsValidator
    ],
)
def test_every_rule_still_refuses(table: Any, expression: str, values: Any, refusal: str) -> None:
    names = {"ExpressionAttributeNames": {"#n": "name"}} if "#n" in expression else {}
    with pytest.raises(ClientError) as refused:
        _update(table, expression, values, **names)
    assert refused.value.response["Error"]["Code"] == "ValidationException"
    assert refusal.lower() in refused.value.response["Error"]["Message"].lower()


def test_a_kept_expression_applies_again_to_another_item_and_a_bad_one_refuses_every_time(table: Any) -> None:
    expression = "SET credits = if_not_exists(credits, :zero) + :n"
    for n, expected in ((2, "2"), (3, "5")):
        answer = _update(table, expression, {":zero": {"N": "0"}, ":n": {"N": str(n)}})["Attributes"]
        assert answer["credits"] == {"N": expected}  # the kept tree was not changed by its first use
    other = {"pk": {"S": "A#2"}, "sk": {"S": "META"}}
    made = table.update_item(
        TableName="t",
        Key=other,
        UpdateExpression=expression,
        ExpressionAttributeValues={":zero": {"N": "0"}, ":n": {"N": "7"}},
        ReturnValues="ALL_NEW",
    )["Attributes"]
    assert made["credits"] == {"N": "7"}
    for _ in range(2):
        with pytest.raises(ClientError) as refused:
            _update(table, "SET = :n", {":n": {"N": "1"}})
        assert refused.value.response["Error"]["Code"] == "ValidationException"
