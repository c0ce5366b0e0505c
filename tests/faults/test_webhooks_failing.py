"""Webhooks failing while Stripe keeps sending (issue 42): our webhook answers an error for half
of the deliveries and the billing workflow cannot reach Stripe, while Stripe redelivers every
unanswered event, in any order and more than once. The sync converges once it can: no credit
lost, none doubled, every event processed, the ledgers as they should be."""

from __future__ import annotations

import random
import time

import pytest

from infra.local.faults import Faults
from tandem.services import stripe_events as events_service
from tests.faults.conftest import billing_executions, stripe_events
from tests.functional.helpers import Brand
from tests.functional.test_billing import Shop


@pytest.mark.long
@pytest.mark.parametrize("seed", [7, 11])
def test_webhooks_failing_while_stripe_keeps_sending_converge_without_lost_or_doubled_credit(
    shop: Shop, faults: Faults, seed: int
) -> None:
    from tandem.services.stripe_events import is_billing_event

    buyers = [Brand(f"buyer{i}@example.com", f"Buyer {i}", status="none") for i in range(4)]
    for buyer in buyers:
        monthly = {"priceId": "tandem_main_monthly"}
        status, body = shop.api.call("POST", "/api/checkout", buyer.headers, monthly)
        assert status == 200, body
        assert shop.pay(body["url"]).startswith("cs_")
    events = shop.new_events()
    billing = {e["id"] for e in events if is_billing_event(e["type"])}
    assert len(billing) >= 2 * len(buyers)  # at least checkout.session.completed and invoice.paid each

    refusing = faults.add("lambda", "raise", match="StripeWebhookFunction", share=0.5)
    faults.add("stripe", "down")  # and the workflow cannot reach Stripe: every sync fails
    order = random.Random(seed)
    pending, answered, refused = list(events), set(), 0
    while pending:  # Stripe: every event not answered 2xx is sent again later, in no order
        order.shuffle(pending)
        for event in pending:
            status, _ = shop.deliver(event)
            if status == 200:
                answered.add(event["id"])
            else:
                assert status >= 500
                refused += 1
        pending = [e for e in pending if e["id"] not in answered]
    assert refused == refusing.hits > 0
    for event in order.sample(events, len(events) // 2):  # and some again, as Stripe may
        assert shop.deliver(event)[0] in (200, 502)

    runs = billing_executions(shop.aws)
    assert set(runs.values()) == {"FAILED"}  # none could sync: each marked failed, none done
    held = stripe_events()
    assert set(held) == billing and set(held.values()) == {"failed"}
    assert [shop.credits(b)["available"] for b in buyers] == [0, 0, 0, 0]  # nothing granted unseen

    faults.clear()  # Stripe and our webhook healthy again; no redelivery needed from Stripe
    later = int(time.time()) + events_service.RETRY_DELAYS[2] + 1  # past every failed attempt's delay
    assert events_service.retry_failed(now=later) == {"retried": len(billing), "gaveUp": 0, "leftAlone": 0}
    runs = billing_executions(shop.aws)
    assert sum(1 for s in runs.values() if s == "SUCCEEDED") == len(billing)
    assert set(stripe_events().values()) == {"done"}
    assert events_service.retry_failed(now=later) == {"retried": 0, "gaveUp": 0, "leftAlone": 0}

    for event in events:  # a late redelivery of anything changes nothing
        assert shop.deliver(event)[0] == 200
    assert [shop.credits(b)["available"] for b in buyers] == [6, 6, 6, 6]
    from tandem.services import credits as ledgers

    assert ledgers.verify_all()["mismatched"] == {}


def test_an_event_still_failing_after_three_days_leaves_the_retry_list_for_make_redrive(
    shop: Shop, faults: Faults
) -> None:
    buyer = Brand("mia@example.com", "Oat & Co", status="none")
    status, body = shop.api.call("POST", "/api/checkout", buyer.headers, {"priceId": "tandem_main_monthly"})
    assert status == 200, body
    shop.pay(body["url"])
    faults.add("stripe", "down")
    assert {shop.deliver(e)[0] for e in shop.new_events()} == {200}
    assert set(billing_executions(shop.aws).values()) == {"FAILED"}
    failed = len(stripe_events())

    past = int(time.time()) + events_service.RETRY_FOR + events_service.RETRY_DELAYS[-1]
    assert events_service.retry_failed(now=past) == {"retried": 0, "gaveUp": failed, "leftAlone": 0}
    assert events_service.retry_failed(now=past) == {"retried": 0, "gaveUp": 0, "leftAlone": 0}
    assert set(stripe_events().values()) == {"failed"}  # kept, for the alarm and make redrive

    faults.clear()
    from infra import redrive

    assert len(redrive.redrive_billing()) == failed  # make redrive WHAT=billing, once it is fixed
    billing_executions(shop.aws)
    assert set(stripe_events().values()) == {"done"}
    assert shop.credits(buyer)["available"] == 6
