"""A cancelled TransactWriteItems leaves every item as it was, under infra/local/moto_isolation's
item-by-item rollback (moto itself copied the whole table before every transaction)."""

from __future__ import annotations

import pytest
from pynamodb.exceptions import TransactWriteError


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
    with pytest.raises(TransactWriteError) as raised, transaction() as tx:
        # pynamodb sends deletes, then puts, then updates: the failing condition comes last
        tx.delete(Counter.at("deleted"))
        tx.save(Counter(*Counter.key("new"), value=7))
        tx.update(Counter.at("kept"), actions=[Counter.value.add(5)])
        tx.update(Counter.at("guarded"), actions=[Counter.value.add(1)], condition=Counter.value == 99)
    reasons = [r.code if r else None for r in raised.value.cancellation_reasons]
    assert reasons == [None, None, None, "ConditionalCheckFailed"]
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
