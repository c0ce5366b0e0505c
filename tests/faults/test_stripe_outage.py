"""Stripe down for 60 seconds in the middle of a burst of purchases, sends and feature checkouts
(issue 42): members who asked our servers for Stripe during it are told so (a 503 saying to try
again, at once, never "Something went wrong on our side"), every payment Stripe took is granted
exactly once after it, nothing is granted for a payment that never happened, and sends, which
need no Stripe, go on."""

from __future__ import annotations

import time

import pytest

from infra.local.faults import Faults
from tandem.integrations.outages import PAYMENTS_UNAVAILABLE
from tandem.services import stripe_events as events_service
from tests.factories import auth_headers
from tests.faults.conftest import billing_executions, stripe_events
from tests.functional.helpers import Brand, available, send
from tests.functional.test_billing import Shop
from tests.functional.test_pitch import OPPORTUNITY

UNAVAILABLE = (503, {"error": PAYMENTS_UNAVAILABLE, "code": "payments_unavailable", "retryAfter": 30})


def _checkout(shop: Shop, member: Brand) -> tuple[int, dict]:
    return shop.api.call("POST", "/api/checkout", member.headers, {"priceId": "tandem_main_monthly"})


def _feature_owner(shop: Shop) -> tuple[dict[str, str], str]:
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="fay@example.com", name="Fay Feature", password=None, access="feature"
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fay's Florals", category="home")
    headers = auth_headers(
        tokens.issue_access_token(user.user_id, account.account_id, "feature"), int(brand.brand_id)
    )
    status, body = shop.api.call("POST", "/api/pitch", headers, OPPORTUNITY)
    assert status == 201, body
    return headers, body["feature"]["id"]


def _deliver(shop: Shop) -> int:
    delivered = 0
    for event in shop.new_events():
        status, reply = shop.deliver(event)
        assert status == 200, reply  # the webhook records and starts it: no Stripe call needed
        delivered += 1
    return delivered


def test_a_60_second_stripe_outage_grants_what_stripe_took_once_and_tells_who_tried(
    shop: Shop, faults: Faults
) -> None:
    buyers = [Brand(f"buyer{i}@example.com", f"Buyer {i}", status="none") for i in range(7)]
    senders = [Brand(f"sender{i}@example.com", f"Sender {i}", credits=6) for i in range(3)]
    targets = [Brand(f"target{i}@example.com", f"Target {i}") for i in range(3)]
    fay, feature_id = _feature_owner(shop)

    # Before: two buy and pay; two more open their checkout (paid on Stripe's page during it).
    before = [_checkout(shop, b) for b in buyers[:4]]
    assert [s for s, _ in before] == [200] * 4
    paid_before = [shop.pay(body["url"]) for _, body in before[:2]]
    _deliver(shop)
    assert set(billing_executions(shop.aws).values()) == {"SUCCEEDED"}  # settled before it starts

    outage = faults.add("stripe", "down", for_seconds=60)  # every call our servers make to Stripe
    started = time.monotonic()
    # During: the payments Stripe's own page takes (the browser talks to Stripe, we do not) ...
    paid_during = [shop.pay(body["url"]) for _, body in before[2:4]]
    assert all(s.startswith("cs_") for s in paid_before + paid_during)
    # ... three members who try to buy, one feature checkout, two payment-status polls:
    tried = [_checkout(shop, b) for b in buyers[4:7]]
    feature_try = shop.api.call("POST", f"/api/pitch/{feature_id}/checkout", fay, {})
    polls = [
        shop.api.call("GET", f"/api/stripe/payment-status/{session}", buyer.headers)
        for session, buyer in zip(paid_during, buyers[2:4], strict=True)
    ]
    answered_in = time.monotonic() - started
    # ... and sends, which need no Stripe, made as usual; Stripe's events keep arriving.
    sent = [send(shop.api, s, t)[0] for s, t in zip(senders, targets, strict=True)]
    during_events = _deliver(shop)

    assert tried == [UNAVAILABLE] * 3  # told at once, in words, with when to try again
    assert feature_try == UNAVAILABLE
    assert polls == [UNAVAILABLE] * 2  # the page retries these and then offers "Try again"
    assert answered_in < 30  # six answers, none near the 10 s of three 3.05 s connect timeouts
    assert sent == [201, 201, 201]
    assert during_events > 0
    assert faults.hits("stripe") >= 6 * 3  # each call tried three times (max_network_retries 2)

    # After: the window ends on the faults' clock; whatever the state machines' retries did
    # not bring back, the scheduled retry does (its delay passed on the job's clock).
    faults.advance(max(0.0, outage.end - faults.now()) + 1)
    first_round = billing_executions(shop.aws)
    failed = [name for name, status in first_round.items() if status == "FAILED"]
    retried = events_service.retry_failed(now=int(time.time()) + events_service.RETRY_DELAYS[0] + 1)
    assert retried == {"retried": len(failed), "gaveUp": 0, "leftAlone": 0}
    assert set(billing_executions(shop.aws).values()) <= {"SUCCEEDED", "FAILED"}
    assert set(stripe_events().values()) == {"done"}  # every event processed, none left failed

    # Every payment Stripe took: granted once. The ones who were told: nothing yet.
    for buyer in buyers[:4]:
        assert shop.credits(buyer)["available"] == 6, buyer.email
    for buyer in buyers[4:7]:
        credits = shop.credits(buyer)
        assert (credits["available"], credits["hasSubscription"]) == (0, False), buyer.email
    assert [available(s.account) for s in senders] == [5, 5, 5]

    # Two of the three come back and buy; the third never does and is never charged or granted.
    for buyer in buyers[4:6]:
        status, body = _checkout(shop, buyer)
        assert status == 200, body
        shop.pay(body["url"])
    status, body = shop.api.call("POST", f"/api/pitch/{feature_id}/checkout", fay, {})
    assert status == 200, body
    shop.pay(body["url"])
    _deliver(shop)
    assert set(billing_executions(shop.aws).values()) <= {"SUCCEEDED", "FAILED"}
    assert set(stripe_events().values()) == {"done"}

    assert [shop.credits(b)["available"] for b in buyers] == [6, 6, 6, 6, 6, 6, 0]
    assert shop.api.call("GET", "/api/pitch/mine", fay)[1]["features"][0]["paid"] is True
    from tandem.services import credits as credit_ledgers

    ledgers = credit_ledgers.verify_all()
    assert ledgers["mismatched"] == {} and ledgers["accounts"] >= 9
    from tandem.store.models import Account

    paid_sessions = sum(
        len((Account.find(b.account).billing or {}).get("paid_sessions") or []) for b in buyers
    )
    assert paid_sessions == 6  # one recorded payment per purchase, none twice


# A 5xx is tried three times (the library's max_network_retries, with backoff and jitter, the
# same idempotency key); a rate limit once: the library retries a 429 only for Stripe's lock
# timeouts, and a member should not wait out a rate limit on a page.
@pytest.mark.parametrize(("kind", "tries"), [("500", 3), ("429", 1)])
def test_stripe_answering_500_or_429_is_the_same_clear_503(
    shop: Shop, faults: Faults, kind: str, tries: int
) -> None:
    member = Brand("mia@example.com", "Oat & Co", status="none")
    faults.add("stripe", kind, retry_after=1)
    assert _checkout(shop, member) == UNAVAILABLE
    assert faults.hits("stripe", kind) == tries
    faults.clear()
    status, body = _checkout(shop, member)
    assert status == 200 and body["url"].startswith(shop.fake.base_url)


def test_a_slow_stripe_is_a_503_after_the_read_timeout_not_a_hung_page(
    shop: Shop, faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tandem.integrations import stripe_client

    member = Brand("mia@example.com", "Oat & Co", status="none")
    with monkeypatch.context() as patched:
        patched.setattr(stripe_client, "TIMEOUT", (1.0, 0.2))  # the read timeout, shortened for the test
        stripe_client.reset_client()
        faults.add("stripe", "slow", delay=0.6)
        assert _checkout(shop, member) == UNAVAILABLE
        assert faults.hits("stripe", "slow") == 3
        faults.clear()
    stripe_client.reset_client()
    assert _checkout(shop, member)[0] == 200
