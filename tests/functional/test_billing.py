"""Billing end to end on moto with the billing state machine really executed and the fake
Stripe in-process: a member buys through the hosted checkout, the fake's events are delivered
signed to the webhook (in order, duplicated, shuffled, or not at all), and what the member sees
(dashboard credits, payment status, routes) is asserted through the API."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from infra import stripe_sync
from infra.local.fake_stripe import FakeStripe
from infra.local.fake_stripe.browser import GOOD_CARD, pay_hosted_checkout
from tandem.integrations import stripe_client as sc
from tandem.services import billing as billing_refunds
from tests.conftest import wait_for_execution
from tests.functional.helpers import Api, Brand

API_KEY = "sk_test_billing"
DECLINED = "4000 0000 0000 0002"
TIMEOUT = 10


@pytest.fixture
def fake(aws, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeStripe]:
    from tandem.config import settings

    f = FakeStripe(api_key=API_KEY)  # no endpoint: the tests deliver its events themselves
    f.start(0)
    monkeypatch.setenv("STRIPE_API_KEY", API_KEY)
    monkeypatch.setenv("STRIPE_API_BASE", f.base_url)
    sc.reset_client()
    stripe_sync.Sync(sc.client(), settings().site_url, log=lambda _: None).run()
    yield f
    sc.reset_client()
    f.stop()


class Shop:
    """The member's side (API calls) and Stripe's side (the hosted page, webhook deliveries)."""

    def __init__(self, aws: Any, fake: FakeStripe) -> None:
        from tandem.integrations.aws import get_secret

        self.aws, self.fake, self.api = aws, fake, Api(aws)
        self.secret = json.loads(get_secret(aws.secrets["StripeSecret"]))["webhook_secret"]
        self.delivered: set[str] = set()
        machine = aws.state_machines["BillingStateMachine"]
        self.executions = machine.arn.replace(":stateMachine:", ":execution:")

    def products(self, member: Brand, redirect: str | None = None) -> dict[str, Any]:
        if redirect is None:
            status, body = self.api.call("GET", "/api/products", member.headers)
        else:
            status, body = self.api.call("POST", "/api/products", member.headers, {"redirect": redirect})
        assert status == 200, body
        return body

    def link(
        self, member: Brand, lookup_key: str = "tandem_main_monthly", redirect: str | None = None
    ) -> str:
        """Where Buy now goes: the option's link, or (an account without a Stripe customer
        yet: GET products writes nothing) the Checkout Session POST checkout makes."""
        for product in self.products(member, redirect)["products"]:
            for options in product["prices"].values():
                for option in options:
                    if option["id"] == lookup_key:
                        if option["link"]:
                            return option["link"]
                        body = {"priceId": lookup_key, **({"redirect": redirect} if redirect else {})}
                        status, made = self.api.call("POST", "/api/checkout", member.headers, body)
                        assert status == 200, made
                        return made["url"]
        raise AssertionError(f"{lookup_key} not offered")

    def pay(self, url: str, card: str = GOOD_CARD) -> str:
        """Pay on the hosted page; returns the checkout session id."""
        answer = pay_hosted_checkout(url, card, email="mia@tandem.local", name="Mia")
        return answer.headers.get("Location", "").rsplit("/", 1)[-1] if answer.status_code == 303 else ""

    def signed(self, payload: bytes, at: int | None = None, secret: str | None = None) -> dict[str, str]:
        stamp = int(at if at is not None else time.time())
        mac = hmac.new((secret or self.secret).encode(), f"{stamp}.".encode() + payload, hashlib.sha256)
        return {"Stripe-Signature": f"t={stamp},v1={mac.hexdigest()}"}

    def deliver(self, event: dict[str, Any]) -> tuple[int, Any]:
        payload = json.dumps(event).encode()
        return self.api.call("POST", "/api/stripe/webhook", self.signed(payload), payload)

    def new_events(self) -> list[dict[str, Any]]:
        fresh = self.fake.events(skip=self.delivered)
        self.delivered.update(e["id"] for e in fresh)
        return fresh

    def settle(self, events: list[dict[str, Any]], attempt: int = 0) -> None:
        from tandem.services.stripe_events import is_billing_event

        for event in {e["id"]: e for e in events if is_billing_event(e["type"])}.values():
            name = event["id"] if attempt == 0 else f"{event['id']}-{attempt}"
            result = wait_for_execution(f"{self.executions}:{name}")
            assert result["status"] == "SUCCEEDED", result

    def deliver_all(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            status, reply = self.deliver(event)
            assert status == 200, reply
        self.settle(events)

    def credits(self, member: Brand) -> dict[str, Any]:
        status, body = self.api.call("GET", "/api/dashboard", member.headers)
        assert status == 200, body
        return body["credits"]


@pytest.fixture
def shop(aws, fake) -> Shop:
    return Shop(aws, fake)


@pytest.mark.delivery
def test_buying_monthly_gives_six_credits_once_however_often_the_events_arrive(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    assert shop.credits(mia)["productsAllowed"] is True
    session = shop.pay(shop.link(mia))
    assert session.startswith("cs_")
    events = shop.new_events()
    assert {"checkout.session.completed", "invoice.paid"} <= {e["type"] for e in events}
    shop.deliver_all(events)

    credits = shop.credits(mia)
    assert (credits["available"], credits["total"], credits["totalMain"]) == (6, 6, 6)
    assert credits["active"] is True and credits["hasSubscription"] is True
    assert credits["productsAllowed"] is False and credits["addonsAllowed"] is True
    assert credits["mainSubscripionProductId"] == "main" and credits["isYearly"] is False
    assert credits["notAllowedMessage"] is None

    from tandem.services.stripe_events import is_billing_event

    assert {"payment_intent.created", "charge.succeeded"} <= {e["type"] for e in events}
    for event in events:  # every event again: duplicates of done events are ignored
        again = {"duplicate": True} if is_billing_event(event["type"]) else {"ignored": True}
        assert shop.deliver(event) == (200, {"received": True, **again})
    assert shop.credits(mia)["available"] == 6

    status, paid = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, paid) == (200, {"status": "paid", "kind": "subscription", "processed": True})
    status, user = shop.api.call("GET", "/api/users", mia.headers)
    assert "invoice.paid" in user["lastWebhookUpdate"] and user["lastWebhookUpdate"]["invoice.paid"].endswith(
        "Z"
    )
    status, progress = shop.api.call("GET", "/api/users/webhooks-in-progress", mia.headers)
    assert status == 200 and progress["count"] == 0
    assert 1 <= len(progress["recent"]) <= 5 and progress["recent"][0]["at"].endswith("Z")


@pytest.mark.delivery
def test_the_browser_back_before_the_webhook_syncs_once_and_the_events_grant_nothing_more(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    session = shop.pay(shop.link(mia, redirect="/matches"))
    status, paid = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, paid) == (200, {"status": "paid", "kind": "subscription", "processed": True})
    assert shop.credits(mia)["available"] == 6  # not "buy a subscription"
    shop.deliver_all(shop.new_events())
    credits = shop.credits(mia)
    assert (credits["available"], credits["total"]) == (6, 6)


def test_a_session_of_another_account_or_none_is_a_404_that_says_nothing(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    fern = Brand("fern@tandem.local", "Fern Candles", status="none")
    session = shop.pay(shop.link(mia))
    for path in (f"/api/stripe/payment-status/{session}", "/api/stripe/payment-status/cs_test_nope"):
        status, body = shop.api.call("GET", path, fern.headers)
        assert (status, body) == (404, {"error": "Payment not found"})
    assert shop.credits(fern)["available"] == 0


def test_an_open_checkout_is_not_paid_and_changes_nothing(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    url = shop.link(mia)
    session = url.rsplit("/", 1)[-1]
    assert requests.get(url, timeout=TIMEOUT).status_code == 200  # the page seen, nothing paid
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, body) == (200, {"status": "open", "kind": "subscription", "processed": False})
    assert shop.credits(mia)["available"] == 0


@pytest.mark.delivery
def test_a_subscription_checkout_paid_with_a_declined_card_answers_failed_with_stripes_message(
    shop: Shop,
) -> None:
    """It used to answer 'open' (a subscription-mode session has no payment intent and stays
    open): the declined attempt at the first payment is the customer's, and is 'failed' with
    Stripe's reason, as a one-off is; nothing is granted, and the same checkout paid with
    another card afterwards is paid."""
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    url = shop.link(mia)
    session = url.rsplit("/", 1)[-1]
    assert shop.pay(url, DECLINED) == ""
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    declined = {"status": "failed", "kind": "subscription", "processed": False}
    assert (status, body) == (200, {**declined, "message": "Your card was declined."})
    shop.deliver_all(shop.new_events())  # charge.failed, payment_intent.payment_failed: nothing to grant
    credits = shop.credits(mia)
    assert (credits["available"], credits["total"], credits["active"]) == (0, 0, False)

    assert shop.pay(url) == session  # another card on the same checkout
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, body) == (200, {"status": "paid", "kind": "subscription", "processed": True})
    assert shop.credits(mia)["available"] == 6


@pytest.mark.delivery
def test_a_declined_or_expired_one_off_checkout_answers_failed_and_changes_nothing(shop: Shop) -> None:
    """payment-status used to answer 'open' or 'pending' for a payment that had failed: a
    declined attempt (the session's payment intent holds the decline) is 'failed' with Stripe's
    reason, an expired checkout 'expired'; neither grants anything, and the same checkout paid
    with another card afterwards is paid."""
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    url = shop.link(mia, "tandem_access_3_months")
    session = url.rsplit("/", 1)[-1]
    assert shop.pay(url, DECLINED) == ""
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, body) == (
        200,
        {"status": "failed", "kind": "access", "processed": False, "message": "Your card was declined."},
    )
    shop.deliver_all(shop.new_events())  # charge.failed, payment_intent.payment_failed: nothing to grant
    credits = shop.credits(mia)
    assert (credits["available"], credits["total"], credits["fixedTerm"]) == (0, 0, False)

    assert shop.pay(url) == session  # another card on the same checkout
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{session}", mia.headers)
    assert (status, body) == (200, {"status": "paid", "kind": "access", "processed": True})
    assert shop.credits(mia)["available"] == 6

    other = shop.link(mia, "tandem_extra_3")
    sc.client().v1.checkout.sessions.expire(other.rsplit("/", 1)[-1])
    status, body = shop.api.call("GET", f"/api/stripe/payment-status/{other.rsplit('/', 1)[-1]}", mia.headers)
    assert (status, body) == (200, {"status": "expired", "kind": "extra_credits", "processed": False})
    assert shop.credits(mia)["available"] == 6


def test_a_forged_or_stale_signature_is_a_400_and_records_nothing(shop: Shop) -> None:
    from tandem.store.billing import StripeEvent

    event = {
        "id": "evt_forged",
        "object": "event",
        "type": "invoice.paid",
        "data": {"object": {"id": "in_1"}},
    }
    payload = json.dumps(event).encode()
    forged = shop.signed(payload, secret="whsec_not_ours")
    stale = shop.signed(payload, at=int(time.time()) - 301)
    for headers in (forged, stale):
        status, body = shop.api.call("POST", "/api/stripe/webhook", headers, payload)
        assert (status, body) == (400, {"error": "Invalid signature"})
    assert StripeEvent.find("evt_forged") is None


@pytest.mark.delivery
def test_an_event_whose_start_failed_is_processed_when_redelivered(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tandem.services import stripe_events

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    events = shop.new_events()
    paid = next(e for e in events if e["type"] == "invoice.paid")
    real = stripe_events.start_processing

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("Step Functions is down")

    monkeypatch.setattr(stripe_events, "start_processing", broken)
    status, _ = shop.deliver(paid)
    assert status >= 500  # Stripe will redeliver
    assert shop.credits(mia)["available"] == 0
    monkeypatch.setattr(stripe_events, "start_processing", real)
    assert shop.deliver(paid) == (200, {"received": True})  # not "duplicate"
    shop.settle([paid])
    assert shop.credits(mia)["available"] == 6


@pytest.mark.delivery
def test_an_event_whose_processing_failed_is_processed_again_when_redelivered(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tandem.services import billing
    from tandem.store.billing import StripeEvent

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    paid = next(e for e in shop.new_events() if e["type"] == "invoice.paid")
    real = billing.sync_account
    monkeypatch.setattr(billing, "sync_account", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    assert shop.deliver(paid) == (200, {"received": True})
    result = wait_for_execution(f"{shop.executions}:{paid['id']}")
    assert result["status"] == "FAILED"
    assert StripeEvent.find(paid["id"], consistent=True).status == "failed"
    status, progress = shop.api.call("GET", "/api/users/webhooks-in-progress", mia.headers)
    assert progress["count"] == 1  # not processed yet

    monkeypatch.setattr(billing, "sync_account", real)
    assert shop.deliver(paid) == (200, {"received": True})
    shop.settle([paid], attempt=1)
    assert StripeEvent.find(paid["id"], consistent=True).status == "done"
    assert shop.credits(mia)["available"] == 6
    assert shop.deliver(paid) == (200, {"received": True, "duplicate": True})


@pytest.mark.delivery
def test_upgrading_to_yearly_in_the_same_month_adds_no_second_six(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    status, body = shop.api.call("GET", "/api/users/yearly-upgrade", mia.headers)
    assert (status, body) == (
        200,
        {"upgraded": True, "message": "Thanks, your yearly upgrade has been processed successfully..."},
    )
    shop.deliver_all(shop.new_events())
    credits = shop.credits(mia)
    assert credits["isYearly"] is True and (credits["available"], credits["total"]) == (6, 6)
    status, body = shop.api.call("GET", "/api/users/yearly-upgrade", mia.headers)
    assert (status, body) == (400, {"error": "Only a monthly subscription can be upgraded to yearly"})


@pytest.mark.delivery
def test_a_failed_upgrade_payment_is_a_402_with_the_specs_text(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    shop.fake.fail_next_charge("card_declined")
    status, body = shop.api.call("GET", "/api/users/yearly-upgrade", mia.headers)
    assert status == 402 and body["error"].startswith("Sorry, there was an error processing the payment")


def test_the_portal_and_payment_links(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    status, body = shop.api.call("GET", "/api/users/stripe-portal-url", mia.headers)
    assert (status, body) == (400, {"error": "You don't have a subscription to manage yet"})
    status, body = shop.api.call("GET", "/api/users/yearly-upgrade", mia.headers)
    assert (status, body) == (400, {"error": "Only a monthly subscription can be upgraded to yearly"})
    shop.link(mia)  # the first checkout makes the customer
    status, body = shop.api.call("GET", "/api/users/stripe-portal-url", mia.headers)
    assert status == 200 and body["url"].startswith(shop.fake.base_url)

    status, body = shop.api.call("GET", "/api/payment-link/monthly", mia.headers)
    assert status == 200
    assert (
        f"client_reference_id={mia.id}" in body["link"]
        and "prefilled_email=mia%40tandem.local" in body["link"]
    )
    status, body = shop.api.call("GET", "/api/payment-link/weekly", mia.headers)
    assert (status, body) == (400, {"error": "Unknown payment link"})


@pytest.mark.delivery
def test_products_follow_the_contract_and_refuse_a_redirect_off_the_app(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    body = shop.products(mia)
    assert body["currency"] == "gbp" and body["hasDiscount"]["message"].startswith("Save £")
    assert [p["id"] for p in body["products"]] == ["main", "access_3month"]
    main = body["products"][0]
    assert (main["name"], main["type"]) == ("Tandem membership", "main")
    trial, monthly = main["prices"]["monthly"]  # a member who never had a trial is offered one first
    assert trial["id"] == "tandem_main_monthly:trial" and trial["trialDays"] == 14
    assert (
        monthly["link"] is None and trial["link"] is None
    )  # no Stripe customer yet: GET products creates none
    _, monthly = shop.products(mia, "/account/subscriptions")["products"][0]["prices"]["monthly"]
    assert monthly["id"] == "tandem_main_monthly" and monthly["unit_amount"] == 4900
    assert (monthly["count"], monthly["months"], monthly["type"], monthly["label"]) == (
        6,
        1,
        "main",
        "Monthly",
    )
    checkout = sc.get_checkout_session(monthly["link"].rsplit("/", 1)[-1])
    assert checkout["client_reference_id"] == str(mia.id) and checkout["metadata"]["account"] == mia.account
    assert checkout["success_url"].endswith("/account/subscriptions/payment-processing/{CHECKOUT_SESSION_ID}")
    back = shop.products(mia, f"/requests/received/{mia.id}/req_1")["products"][0]["prices"]["monthly"][1]
    assert sc.get_checkout_session(back["link"].rsplit("/", 1)[-1])["cancel_url"].endswith(
        f"/requests/received/{mia.id}/req_1"
    )
    from_list = shop.products(mia, "/requests")["products"][0]["prices"]["monthly"][0]
    assert sc.get_checkout_session(from_list["link"].rsplit("/", 1)[-1])["success_url"].endswith(
        "/requests/payment-processing/{CHECKOUT_SESSION_ID}"
    )
    for bad in ("https://evil.example/x", "//evil.example", "relative", "/somewhere/else", 7):
        status, reply = shop.api.call("POST", "/api/products", mia.headers, {"redirect": bad})
        assert (status, reply) == (400, {"error": "Choose where to come back to after paying"})

    shop.pay(monthly["link"])
    shop.deliver_all(shop.new_events())
    after = shop.products(mia)
    assert [p["id"] for p in after["products"]] == ["extra_credits", "addon"]


@pytest.mark.delivery
def test_a_refund_ends_the_plan_and_takes_back_the_unspent_credits(shop: Shop) -> None:
    from tests.functional.helpers import available

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    from tandem.services import billing
    from tandem.store.models import Account

    billing_refunds.refund_latest_payment(billing.customers_of(Account.find(mia.account)))
    shop.deliver_all(shop.new_events())
    credits = shop.credits(mia)
    assert credits["active"] is False and credits["available"] == 0 and available(mia.account) == 0


@pytest.mark.delivery
@pytest.mark.long
def test_shuffled_duplicated_events_of_many_customers_leave_the_ordered_state(shop: Shop) -> None:
    """Smaller than the bench's 1,000 events for 50 customers (tests/bench/billing_events.py,
    which asserts those numbers): 6 customers' purchases, upgrades and a refund;
    every event delivered twice in a shuffled order equals the state an ordered delivery gives
    (the same accounts built again and delivered in order)."""
    from tandem.services import billing
    from tandem.store.models import Account

    def world(prefix: str) -> tuple[list[Brand], list[dict[str, Any]]]:
        members = [Brand(f"{prefix}{n}@tandem.local", f"Brand {prefix}{n}", status="none") for n in range(6)]
        for n, member in enumerate(members):
            key = "tandem_main_yearly" if n % 3 == 2 else "tandem_main_monthly"
            shop.pay(shop.link(member, key))
        first = members[0]
        extra = sc.create_checkout_session(
            customer=billing.customers_of(Account.find(first.account))[0],
            lookup_key="tandem_extra_6",
            account_id=first.account,
            brand_id=str(first.id),
            user_id=first.user.user_id,
        )
        shop.pay(extra["url"])
        second = billing.customers_of(Account.find(members[1].account))[0]
        (plan,) = sc.client().v1.subscriptions.list({"customer": second}).data
        sc.upgrade_to_yearly(plan.id)
        billing_refunds.refund_latest_payment(billing.customers_of(Account.find(members[3].account)))
        return members, shop.new_events()

    shop.new_events()  # the catalogue's own events (products, prices): not the members'
    ordered, events = world("o")
    shop.deliver_all(events)
    shuffled, more = world("s")
    doubled = more + more
    random.Random(7).shuffle(doubled)
    # the same world twice, and every one of its distinct events delivered exactly twice
    assert len(more) == len(events) == len({e["id"] for e in more}) > 0
    assert len(doubled) == 2 * len(more) and set(Counter(e["id"] for e in doubled).values()) == {2}
    for event in doubled:
        assert shop.deliver(event)[0] == 200
    shop.settle(more)

    def seen(members: list[Brand]) -> list[tuple[Any, ...]]:
        rows = []
        for member in members:
            c = shop.credits(member)
            rows.append((c["available"], c["total"], c["active"], c["isYearly"], c["totalAddOns"]))
        return rows

    assert seen(shuffled) == seen(ordered)
    assert seen(ordered)[0] == (12, 12, True, False, 6)


@pytest.mark.delivery
def test_a_yearly_plan_earns_six_each_month_from_the_scheduler_job(shop: Shop, aws) -> None:
    from tandem.services import billing, credits
    from tests.functional.helpers import run_job

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia, "tandem_main_yearly"))
    shop.deliver_all(shop.new_events())
    assert shop.credits(mia)["available"] == 6 and shop.credits(mia)["isYearly"] is True
    assert run_job(aws, "billing-monthly-grants") == {"synced": 0, "failed": []}  # nothing due yet

    later = shop.fake.advance_clock(days=32)  # one month on: no invoice, yet a new credit month
    assert billing.grant_due_months(later) == {"synced": 1, "failed": []}
    mains = sorted((b.valid_from, b.total) for b in credits.buckets(mia.account) if b.kind == "main")
    assert len(mains) == 2 and [t for _, t in mains] == [6, 6]
    assert billing.grant_due_months(later) == {"synced": 0, "failed": []}  # listed again for next month only
    assert billing.grant_due_months(later + 31 * 86400)["synced"] == 1
    assert len([b for b in credits.buckets(mia.account) if b.kind == "main"]) == 3


@pytest.mark.delivery
def test_a_payment_link_paid_by_a_new_customer_credits_the_brands_account(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    status, body = shop.api.call("GET", "/api/payment-link/monthly", mia.headers)
    opened = requests.get(body["link"], allow_redirects=False, timeout=TIMEOUT)
    assert opened.status_code == 303
    session_url = opened.headers["Location"]
    session_url = session_url if session_url.startswith("http") else shop.fake.base_url + session_url
    assert shop.pay(session_url).startswith("cs_")
    events = shop.new_events()
    shop.deliver_all(events)  # its customer is new to us: the checkout's brand names the account
    credits = shop.credits(mia)
    assert (credits["available"], credits["active"]) == (6, True)
    status, portal = shop.api.call("GET", "/api/users/stripe-portal-url", mia.headers)
    assert status == 200


@pytest.mark.delivery
def test_processing_that_fails_before_the_start_is_marked_is_still_processed_on_redelivery(
    shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race: the execution fails before the webhook marks the event started. The mark
    must not hide the failure, or the redelivery would be ignored as a duplicate."""
    from tandem.services import billing, stripe_events
    from tandem.store.billing import StripeEvent

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    paid = next(e for e in shop.new_events() if e["type"] == "invoice.paid")
    real_sync, real_start = billing.sync_account, stripe_events.start_processing

    def start_and_finish(event_id: str, *args: Any) -> None:
        real_start(event_id, *args)
        wait_for_execution(f"{shop.executions}:{event_id}")  # it fails before the mark

    monkeypatch.setattr(billing, "sync_account", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    monkeypatch.setattr(stripe_events, "start_processing", start_and_finish)
    assert shop.deliver(paid) == (200, {"received": True})
    assert StripeEvent.find(paid["id"], consistent=True).status == "failed"

    monkeypatch.setattr(billing, "sync_account", real_sync)
    monkeypatch.setattr(stripe_events, "start_processing", real_start)
    assert shop.deliver(paid) == (200, {"received": True})
    shop.settle([paid], attempt=1)
    assert shop.credits(mia)["available"] == 6


WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"}
DDB_CALLS: list[str] = []


def _count_ddb_calls() -> None:
    from tandem.integrations import aws as aws_hooks

    aws_hooks.register(
        "before-call.dynamodb",
        lambda model, **_: DDB_CALLS.append(model.name),
        unique_id="test-billing-writes",
    )


def _writes_of(call: Any) -> tuple[Any, int]:
    DDB_CALLS.clear()
    answer = call()
    return answer, sum(1 for name in DDB_CALLS if name in WRITES)


def test_get_products_writes_nothing_and_the_first_checkout_creates_the_customer(shop: Shop) -> None:
    """A GET writes at most one item: the first GET products used to write two (the Stripe
    customer's link and the account's customer list). The customer is made by the first
    checkout request (POST checkout), before its Checkout Session."""
    from tandem.store.models import Account

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    _count_ddb_calls()
    customers_before = len(shop.fake.store.all("customer"))
    for _ in range(2):
        (status, body), writes = _writes_of(lambda: shop.api.call("GET", "/api/products", mia.headers))
        assert status == 200 and writes == 0, (body, DDB_CALLS)
        links = [o["link"] for p in body["products"] for opts in p["prices"].values() for o in opts]
        assert links and links == [None] * len(links)
    assert Account.find(mia.account, consistent=True).stripe_customers is None
    assert len(shop.fake.store.all("customer")) == customers_before

    status, made = shop.api.call("POST", "/api/checkout", mia.headers, {"priceId": "tandem_main_monthly"})
    assert status == 200 and made["url"].startswith(shop.fake.base_url), made
    (customer,) = Account.find(mia.account, consistent=True).stripe_customers
    session = sc.get_checkout_session(made["url"].rsplit("/", 1)[-1])
    assert session["customer"] == customer and session["client_reference_id"] == str(mia.id)
    assert session["success_url"].endswith("/account/subscriptions/payment-processing/{CHECKOUT_SESSION_ID}")

    # Once the customer exists, GET products hands out links, still writing nothing.
    (status, body), writes = _writes_of(lambda: shop.api.call("GET", "/api/products", mia.headers))
    assert status == 200 and writes == 0
    _, monthly = body["products"][0]["prices"]["monthly"]
    assert sc.get_checkout_session(monthly["link"].rsplit("/", 1)[-1])["customer"] == customer
    status, again = shop.api.call(
        "POST", "/api/checkout", mia.headers, {"priceId": "tandem_main_yearly", "redirect": "/matches"}
    )
    assert status == 200 and Account.find(mia.account, consistent=True).stripe_customers == [customer]
    assert sc.get_checkout_session(again["url"].rsplit("/", 1)[-1])["cancel_url"].endswith("/matches")


def test_checkout_refuses_an_option_not_on_offer_and_a_redirect_off_the_app(shop: Shop) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    for body in (
        {"priceId": "tandem_nope"},
        {"priceId": 7},
        {},
        {"priceId": "tandem_addon_monthly_3"},  # add-ons need a plan first
        {"priceId": "tandem_feature_3_months"},  # a feature is bought from the Pitch Area
    ):
        status, reply = shop.api.call("POST", "/api/checkout", mia.headers, body)
        assert (status, reply) == (400, {"error": "Choose one of the plans on offer"}), body
    status, reply = shop.api.call(
        "POST", "/api/checkout", mia.headers, {"priceId": "tandem_main_monthly", "redirect": "//evil.example"}
    )
    assert (status, reply) == (400, {"error": "Choose where to come back to after paying"})
    from tandem.store.models import Account

    assert Account.find(mia.account, consistent=True).stripe_customers is None
