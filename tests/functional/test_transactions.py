"""A cancelled TransactWriteItems leaves every item as it was, under infra/local/moto_isolation's
item-by-item rollback (moto itself copied the whole table before every transaction)."""

from __future__ import annotations

import pytest
from pynamodb.exceptions import TransactWriteError

from tandem.store.errors import ConditionFailed


def _value(name: str) -> int | None:
    from tandem.store.models import Counter

    found = Counter.find(name, consistent=True)
    return None if found is None else int(found.value)


def _start(name: str, value: int) -> None:
    from tandem.store.models import Counter

    Counter(*Counter.key(name), value=value).save()


def test_a_failed_condition_undoes_the_writes_before_it(aws):
    from infra.local import moto_isolation
    from tandem.store.models import Counter, transaction

    assert moto_isolation.is_installed()
    _start("kept", 1)
    _start("deleted", 2)
    _start("guarded", 3)
    with pytest.raises(ConditionFailed) as raised, transaction() as tx:
        tx.update(Counter.at("guarded"), actions=[Counter.value.add(1)], condition=Counter.value == 99)
        tx.delete(Counter.at("deleted"))
        tx.save(Counter(*Counter.key("new"), value=7))
        tx.update(Counter.at("kept"), actions=[Counter.value.add(5)])
    # the item whose condition failed is named by its key, whatever order pynamodb sent them in
    # (deletes, then puts, then updates)
    assert raised.value.failed_keys == {Counter.key("guarded")}
    reasons = [r.code if r else None for r in raised.value.__cause__.cancellation_reasons]
    assert reasons == [None, None, "ConditionalCheckFailed", None]
    assert [_value(n) for n in ("kept", "new", "deleted", "guarded")] == [1, None, 2, 3]


def test_two_operations_on_one_item_change_nothing(aws):
    from tandem.store.models import Counter, transaction

    _start("twice", 3)
    with pytest.raises(TransactWriteError), transaction() as tx:
        tx.save(Counter(*Counter.key("first"), value=1))
        tx.update(Counter.at("twice"), actions=[Counter.value.add(1)])
        tx.delete(Counter.at("twice"))
    assert (_value("first"), _value("twice")) == (None, 3)


def test_a_transaction_that_succeeds_writes_everything(aws):
    from tandem.store.models import Counter, transaction

    _start("a", 1)
    with transaction() as tx:
        tx.update(Counter.at("a"), actions=[Counter.value.add(1)])
        tx.save(Counter(*Counter.key("b"), value=5))
    assert (_value("a"), _value("b")) == (2, 5)


def test_put_new_claims_a_key_once(aws):
    from tandem.store.models import Counter

    assert Counter(*Counter.key("claim"), value=1).put_new() is True
    assert Counter(*Counter.key("claim"), value=2).put_new() is False
    assert _value("claim") == 1  # the second claim changed nothing


def test_a_refused_single_write_is_condition_failed_and_changes_nothing(aws):
    from tandem.store.models import Counter, update_only, update_returning_old

    _start("one", 1)
    with pytest.raises(ConditionFailed) as raised:
        Counter.at("one").update(actions=[Counter.value.add(1)], condition=Counter.value == 5)
    assert raised.value.failed_keys == frozenset()
    with pytest.raises(ConditionFailed):
        update_only(Counter, Counter.key("one"), [Counter.value.add(1)], Counter.value == 5)
    with pytest.raises(ConditionFailed):
        update_returning_old(Counter, Counter.key("one"), [Counter.value.add(1)], Counter.value == 5)
    with pytest.raises(ConditionFailed):
        Counter.at("one").delete(condition=Counter.value == 5)
    with pytest.raises(ConditionFailed):
        Counter(*Counter.key("one"), value=9).save(condition=Counter.pk.does_not_exist())
    assert _value("one") == 1


def test_a_malformed_transaction_is_a_fault_not_a_refusal(aws):
    """Only a refused condition is ConditionFailed: a request DynamoDB rejects (two writes to one
    item in a transaction) keeps pynamodb's error, so it is not answered as 'already done'."""
    from tandem.store.models import Counter, transaction

    _start("twice", 1)
    with pytest.raises(TransactWriteError) as raised, transaction() as tx:
        tx.update(Counter.at("twice"), actions=[Counter.value.add(1)])
        tx.update(Counter.at("twice"), actions=[Counter.value.add(2)])
    assert not isinstance(raised.value, ConditionFailed)
    assert raised.value.cause_response_code != "TransactionCanceledException"
    assert _value("twice") == 1
