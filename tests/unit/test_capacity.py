"""Capacity units from item sizes by DynamoDB's rules (tandem.store.capacity, the day replay's meter)."""

from __future__ import annotations

import base64

import pytest

from tandem.store import capacity
from tandem.store.capacity import Meter, cost_of, item_size, number_size, read_units, write_units


def s(text: str) -> dict:
    return {"S": text}


def test_an_item_is_its_names_and_values():
    # "pk" (2) + "BRAND#7" (7) + "n" (1) + 12345 (3 digits pairs + 1 = 4) + "ok" (2) + true (1)
    item = {"pk": s("BRAND#7"), "n": {"N": "12345"}, "ok": {"BOOL": True}}
    assert item_size(item) == 2 + 7 + 1 + 4 + 2 + 1


def test_numbers_count_significant_digits_in_pairs():
    assert number_size("7") == 2
    assert number_size("1000") == 2  # trailing zeros are not significant
    assert number_size("0.0015") == 2
    assert number_size("123456") == 4
    assert number_size("-12") == 3


def test_nested_values_and_sets():
    assert capacity.value_size({"L": [s("ab"), {"N": "1"}]}) == 3 + (1 + 2) + (1 + 2)
    assert capacity.value_size({"M": {"k": s("v")}}) == 3 + 1 + 1 + 1
    assert capacity.value_size({"SS": ["a", "bcd"]}) == 4
    assert capacity.value_size({"B": base64.b64encode(b"\x00" * 10).decode()}) == 10
    assert capacity.value_size({"B": b"\x00" * 10}) == 10
    assert capacity.value_size({"NULL": True}) == 1


def test_read_and_write_units_round_up_and_halve_or_double():
    assert read_units(0, consistent=True) == 1  # nothing found still costs the minimum
    assert read_units(4096, consistent=True) == 1
    assert read_units(4097, consistent=True) == 2
    assert read_units(4097, consistent=False) == 1
    assert read_units(5000, consistent=True, transactional=True) == 4
    assert write_units(1) == 1
    assert write_units(1025) == 2
    assert write_units(1025, transactional=True) == 4


def big(pk: str, size: int) -> dict:
    """An item of exactly `size` bytes."""
    base = {"pk": s(pk), "sk": s("X"), "v": s("")}
    return {**base, "v": s("x" * (size - item_size(base)))}


def test_a_get_is_charged_for_the_whole_item_even_when_projected():
    whole = big("A", 9000)
    answer = {"Item": {"pk": s("A"), "sk": s("X")}}
    params = {"TableName": "t", "Key": {"pk": s("A"), "sk": s("X")}, "ProjectionExpression": "pk"}
    assert (
        cost_of("GetItem", params, answer, {}, lambda *_: whole).rcu == 1.5
    )  # 3 units, eventually consistent


def test_a_query_rounds_its_total_and_counts_what_a_filter_left_out():
    items = [big("A", 1000), big("A", 1000)]
    params = {"TableName": "t", "ConsistentRead": True}
    assert cost_of("Query", params, {"Items": items, "ScannedCount": 2}, {}).rcu == 1
    # 2 returned, 6 more read and filtered out at their mean size: 8,000 bytes, 2 units
    assert cost_of("Query", params, {"Items": items, "ScannedCount": 8}, {}).rcu == 2
    index = {**params, "IndexName": "gsi1"}  # an index read is eventually consistent whatever asked
    assert cost_of("Query", index, {"Items": items, "ScannedCount": 8}, {}).rcu == 1


def test_a_batch_get_rounds_each_item_and_charges_missing_keys():
    params = {"RequestItems": {"t": {"Keys": [{}, {}, {}], "ConsistentRead": True}}}
    answer = {"Responses": {"t": [big("A", 5000), big("B", 100)]}}
    assert cost_of("BatchGetItem", params, answer, {}).rcu == 2 + 1 + 1


def test_a_put_costs_the_larger_of_before_and_after_and_names_its_partitions():
    new = {**big("BRAND#1", 500), "gsi1pk": s("ALL")}
    old = big("BRAND#1", 3000)
    cost = cost_of("PutItem", {"TableName": "t", "Item": new}, {}, {("t", "BRAND#1", "X"): old})
    assert cost.wcu == 3
    assert cost.writes == [("BRAND#1", 3.0), ("gsi1:ALL", 3.0)]


def test_an_update_reads_its_after_image_and_a_failed_condition_still_costs():
    key = {"pk": s("A"), "sk": s("X")}
    before = {("t", "A", "X"): big("A", 900)}
    after = big("A", 2100)
    params = {"TableName": "t", "Key": key}
    assert cost_of("UpdateItem", params, {}, before, lambda *_: after).wcu == 3
    failed = {"Error": {"Code": "ConditionalCheckFailedException"}}
    assert cost_of("UpdateItem", params, failed, before, lambda *_: after).wcu == 1


def test_a_transaction_doubles_every_item_a_condition_check_too():
    params = {
        "TransactItems": [
            {"Put": {"TableName": "t", "Item": big("A", 1500)}},
            {"ConditionCheck": {"TableName": "t", "Key": {"pk": s("B"), "sk": s("X")}}},
            {"Delete": {"TableName": "t", "Key": {"pk": s("C"), "sk": s("X")}}},
        ]
    }
    before = {("t", "B", "X"): big("B", 200), ("t", "C", "X"): big("C", 2500)}
    cost = cost_of("TransactWriteItems", params, {}, before)
    assert cost.wcu == 2 * 2 + 2 * 1 + 2 * 3
    assert [p for p, _ in cost.writes] == ["A", "C"]  # a check writes nowhere


class _Model:
    def __init__(self, name: str) -> None:
        self.name = name


def test_the_meter_counts_per_scope_and_per_partition_second():
    meter = Meter(lookup=lambda *_: None, clock=lambda: 100.4)
    put = {"TableName": "t", "Item": big("ACTS#1", 100)}

    def call(params: dict, name: str = "PutItem") -> None:
        context: dict = {}
        meter._params(params=params, model=_Model(name), context=context)
        meter._before(model=_Model(name), context=context)
        meter._after(parsed={}, model=_Model(name), context=context)

    with meter.scope("PUT /api/x") as usage:
        call(put)
        call(put)
    call(put)
    assert (usage.calls, usage.wcu) == (2, 2)
    assert meter.totals["PUT /api/x"]["wcu"] == 2
    assert meter.totals["other"]["calls"] == 1
    assert meter.writes == {("PUT /api/x", "ACTS#1", 100): 2.0, ("other", "ACTS#1", 100): 1.0}
    assert meter.unmetered == 0


def test_a_call_the_meter_cannot_cost_is_counted_never_raised():
    meter = Meter()
    meter._after(parsed={}, model=_Model("GetItem"), context={})  # no params: began before install
    assert meter.unmetered == 1


@pytest.mark.parametrize(
    "operation", ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"]
)
def test_every_write_names_the_keys_whose_before_image_is_read(operation):
    key = {"pk": s("A"), "sk": s("X")}
    params = {
        "PutItem": {"TableName": "t", "Item": {**key, "v": s("1")}},
        "UpdateItem": {"TableName": "t", "Key": key},
        "DeleteItem": {"TableName": "t", "Key": key},
        "BatchWriteItem": {
            "RequestItems": {"t": [{"PutRequest": {"Item": key}}, {"DeleteRequest": {"Key": key}}]}
        },
        "TransactWriteItems": {"TransactItems": [{"Update": {"TableName": "t", "Key": key}}]},
    }[operation]
    assert {(t, k["pk"]["S"]) for t, k in capacity.written_keys(operation, params)} == {("t", "A")}
