"""moto's DynamoDB answers wire-form items as they are (infra/local/moto_items.py): the same
JSON as moto's own shape-by-shape serializer, for every kind of value, binary included."""

from __future__ import annotations

import json
from decimal import Decimal

from infra.local import moto_items

EVERY_KIND = {
    "pk": {"S": "BRAND#7"},
    "sk": {"S": "PROFILE"},
    "name": {"S": "Oat & Co ✓"},
    "empty": {"S": ""},
    "count": {"N": "42"},
    "score": {"N": "0.8125"},
    "hidden": {"BOOL": False},
    "gone": {"NULL": True},
    "tags": {"SS": ["local", "vegan"]},
    "sizes": {"NS": ["1", "2.5"]},
    "logo": {"B": "aGVsbG8="},
    "blobs": {"BS": ["aGVsbG8=", "d29ybGQ="]},
    "social": {"M": {"web": {"S": "https://oat.example"}, "n": {"N": "3"}, "deep": {"M": {"x": {"L": []}}}}},
    "reasons": {
        "L": [{"S": "Same values"}, {"N": "1"}, {"M": {"b": {"B": "aGk="}}}, {"L": [{"BOOL": True}]}]
    },
}


def _bodies(operation: str, result: dict) -> tuple[dict, dict]:
    """(moto's own serializer's body, the wire-form answer's body) of one result."""
    from moto.core.responses import get_service_model
    from moto.core.serialize import JSONSerializer, ResponseSerializer, XFormedAttributePicker
    from moto.dynamodb.responses import DynamoHandler

    moto_items.install()
    model = get_service_model("dynamodb").operation_model(operation)

    class MotosOwn(JSONSerializer):
        _serialize = ResponseSerializer._serialize.__wrapped__  # type: ignore[attr-defined]

    picker = XFormedAttributePicker(response_transformers=DynamoHandler.RESPONSE_KEY_PATH_TO_TRANSFORMER)
    own = MotosOwn(operation_model=model, value_picker=picker).serialize(result)["body"]
    fast = JSONSerializer(operation_model=model, value_picker=picker).serialize(result)["body"]
    return json.loads(own), json.loads(fast)


def test_every_kind_of_value_serializes_as_moto_does():
    plain = {k: v for k, v in EVERY_KIND.items() if k not in ("logo", "blobs", "social", "reasons")}
    results = {
        "GetItem": {"Item": EVERY_KIND},
        "Query": {"Items": [EVERY_KIND, plain], "Count": 2, "ScannedCount": 2},
        "BatchGetItem": {"Responses": {"tandem": [plain, EVERY_KIND]}, "UnprocessedKeys": {}},
        "UpdateItem": {"Attributes": plain},
    }
    for operation, result in results.items():
        own, fast = _bodies(operation, result)
        assert fast == own, operation


def test_only_wire_form_without_binary_is_answered_as_it_is():
    assert moto_items.wire_form({"S": "x"}) == {"S": "x"}
    assert moto_items.wire_form({"M": {"a": {"L": [{"N": "1"}, {"NULL": True}]}}}) is not None
    assert moto_items.wire_form({"B": "aGk="}) is None
    assert moto_items.wire_form({"L": [{"S": "x"}, {"BS": ["aGk="]}]}) is None
    assert moto_items.wire_form({"N": 1}) is None  # not wire form: moto's serializer decides
    assert moto_items.wire_form({"S": "x", "N": "1"}) is None


def test_items_read_through_boto3_come_back_whole(aws):
    from tandem.config import settings
    from tandem.integrations.aws import client
    from tandem.store.models import Brand
    from tests.factories import member

    assert moto_items.is_installed()
    table = settings().table_name
    _, (brand,), _ = member(category="food", values=["vegan", "local"], countries=["GB"])
    raw = client("dynamodb").get_item(TableName=table, Key={"pk": {"S": brand.pk}, "sk": {"S": brand.sk}})
    read = Brand.from_raw_data(raw["Item"])
    assert (read.name, read.category, set(read.values)) == ("Oat & Co", "food", {"vegan", "local"})
    client("dynamodb").put_item(
        TableName=table,
        Item={"pk": {"S": "T#1"}, "sk": {"S": "T"}, "blob": {"B": b"\x00\xffhi"}, "n": {"N": "1.50"}},
    )
    item = client("dynamodb").get_item(TableName=table, Key={"pk": {"S": "T#1"}, "sk": {"S": "T"}})["Item"]
    assert item["blob"]["B"] == b"\x00\xffhi"
    assert Decimal(item["n"]["N"]) == Decimal("1.5")
