"""The local payment stand-in, driven as the app will drive it: the real stripe library by base
URL, the hosted pages over HTTP (form posts, as a browser sends them), and signed webhooks to a
small local receiver verified with stripe.Webhook.construct_event."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
import stripe
from werkzeug.serving import WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response

from infra.local.fake_stripe import FakeStripe
from infra.local.fake_stripe.browser import answer_challenge, challenge_token, pay_hosted_checkout
from infra.local.fake_stripe.server import listening_socket
from tandem.services.stripe_events import BILLING_EVENTS
from tests import clock

SECRET = "whsec_test_local_secret_0123456789"
API_KEY = "sk_test_local_fake"
DAY = 86400
TIMEOUT = 60.0  # a bound for a stuck server, not a speed target


def _unused_port() -> int:
    """A port nothing listens on (the OS picks it; closed again at once)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Quiet(WSGIRequestHandler):
    protocol_version = "HTTP/1.0"  # no kept-alive connection holds the port after stop()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return


class Receiver:
    """The app's webhook endpoint stand-in: records what arrives, can answer 500 for a while."""

    def __init__(self, port: int = 0) -> None:
        self.received: list[dict[str, Any]] = []
        self.fail_next = 0
        self.cond = threading.Condition()
        sock = listening_socket("127.0.0.1", port)
        self.server = make_server(
            "127.0.0.1", port, self.app, threaded=True, request_handler=_Quiet, fd=sock.fileno()
        )
        sock.close()
        self.server.daemon_threads = False  # stop() waits for open connections: the port is free after it
        self.url = f"http://127.0.0.1:{self.server.port}/api/stripe/webhook"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )
        self.thread.start()

    def app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        body = request.get_data(as_text=True)
        with self.cond:
            failing = self.fail_next > 0
            if failing:
                self.fail_next -= 1
            self.received.append(
                {
                    "body": body,
                    "signature": request.headers.get("Stripe-Signature"),
                    "answered": 500 if failing else 200,
                }
            )
            self.cond.notify_all()
        if failing:
            return Response("boom", status=500)(environ, start_response)
        return Response('{"received": true}', mimetype="application/json")(environ, start_response)

    def events(self) -> list[stripe.Event]:
        """Every accepted delivery, verified exactly as the app's webhook verifies it."""
        with self.cond:
            accepted = [r for r in self.received if r["answered"] == 200]
        return [stripe.Webhook.construct_event(r["body"], r["signature"], SECRET) for r in accepted]

    def types(self) -> list[str]:
        return [e.type for e in self.events()]

    def wait_for(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("receiver: condition not met in time")
                self.cond.wait(remaining)

    def wait_for_type(self, event_type: str, count: int = 1) -> None:
        self.wait_for(lambda: sum(1 for r in self._accepted_types() if r == event_type) >= count)

    def _accepted_types(self) -> list[str]:
        import json

        return [json.loads(r["body"])["type"] for r in self.received if r["answered"] == 200]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture
def fake(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeStripe]:
    f = FakeStripe(
        webhook_url=receiver.url, webhook_secret=SECRET, retry_delays=(0.05, 0.1, 0.2), start_at=clock.start()
    )
    base = f.start(0)
    monkeypatch.setattr(stripe, "api_base", base)
    monkeypatch.setattr(stripe, "api_key", API_KEY)
    yield f
    f.stop()


def to_period_end(fake: FakeStripe, sub_id: str, past: int = 3600) -> None:
    """Move the clock just past the subscription's current period end (its renewal), however
    long this month is: an advance of 31 days crosses a renewal and the retry 3 days after it
    when the month has 28 days."""
    end = stripe.Subscription.retrieve(sub_id)["items"].data[0].current_period_end
    fake.advance_clock(end - fake.now() + past)


def settle(fake: FakeStripe) -> None:
    assert fake.wait_for_deliveries(TIMEOUT), "webhook deliveries still pending"


@pytest.fixture
def catalogue(fake: FakeStripe) -> dict[str, Any]:
    product = stripe.Product.create(name="Tandem membership", metadata={"kind": "main"})
    monthly = stripe.Price.create(
        product=product.id,
        currency="gbp",
        unit_amount=1999,
        recurring={"interval": "month"},
        lookup_key="main_monthly",
        metadata={"credits": "6"},
    )
    yearly = stripe.Price.create(
        product=product.id,
        currency="gbp",
        unit_amount=19900,
        recurring={"interval": "year"},
        lookup_key="main_yearly",
    )
    credits = stripe.Price.create(
        product_data={"name": "Extra credits"}, currency="gbp", unit_amount=500, lookup_key="one_off"
    )
    return {"product": product, "monthly": monthly, "yearly": yearly, "credits": credits}


def subscribe(catalogue: dict[str, Any], card: str = "4242 4242 4242 4242") -> tuple[Any, Any]:
    customer = stripe.Customer.create(email="member@tandem.local", metadata={"account": "acc_1"})
    session = stripe.checkout.Session.create(
        mode="subscription",
        customer=customer.id,
        client_reference_id="12",
        metadata={"brand": "12", "return": "account"},
        line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
        subscription_data={"metadata": {"brand": "12"}},
        success_url="http://127.0.0.1:9/account/payment-processing/{CHECKOUT_SESSION_ID}",
        cancel_url="http://127.0.0.1:9/account/subscriptions",
        allow_promotion_codes=True,
    )
    answer = pay_hosted_checkout(session.url, card)
    assert answer.status_code == 303, answer.text
    return customer, stripe.checkout.Session.retrieve(session.id, expand=["subscription", "line_items"])


# --- catalogue, customers, errors, idempotency --------------------------------------------------


def test_prices_are_found_by_lookup_key_and_a_taken_key_moves_only_when_asked(
    catalogue: dict[str, Any],
) -> None:
    found = stripe.Price.list(
        lookup_keys=["main_monthly", "main_yearly"], active=True, expand=["data.product"]
    )
    assert {p.lookup_key for p in found.data} == {"main_monthly", "main_yearly"}
    assert found.object == "list" and found.url == "/v1/prices" and found.has_more is False
    assert all(p.product.name == "Tandem membership" for p in found.data)
    monthly = catalogue["monthly"]
    assert monthly.id.startswith("price_") and monthly.type == "recurring"
    assert monthly.recurring.interval == "month" and monthly.recurring.interval_count == 1
    assert monthly.unit_amount == 1999 and monthly.currency == "gbp" and monthly.metadata["credits"] == "6"
    assert (
        stripe.Price.list(product=catalogue["product"].id).data[0].id == catalogue["yearly"].id
    )  # newest first
    assert catalogue["credits"].type == "one_time" and catalogue["credits"].product.startswith("prod_")

    with pytest.raises(stripe.InvalidRequestError) as taken:
        stripe.Price.create(
            product=catalogue["product"].id,
            currency="gbp",
            unit_amount=2499,
            recurring={"interval": "month"},
            lookup_key="main_monthly",
        )
    assert taken.value.http_status == 400 and taken.value.code == "lookup_key_in_use"

    new_monthly = stripe.Price.create(
        product=catalogue["product"].id,
        currency="gbp",
        unit_amount=2499,
        recurring={"interval": "month"},
        lookup_key="main_monthly",
        transfer_lookup_key=True,
    )
    assert stripe.Price.list(lookup_keys=["main_monthly"]).data[0].id == new_monthly.id
    assert stripe.Price.retrieve(monthly.id).lookup_key is None

    archived = stripe.Price.modify(monthly.id, active=False, metadata={"credits": ""})
    assert archived.active is False and "credits" not in archived.metadata
    assert monthly.id not in [p.id for p in stripe.Price.list(active=True).data]
    products = stripe.Product.list(active=True)
    assert catalogue["product"].id in [p.id for p in products.data]


def test_errors_look_like_stripe_errors(fake: FakeStripe, catalogue: dict[str, Any]) -> None:
    with pytest.raises(stripe.InvalidRequestError) as missing:
        stripe.Customer.retrieve("cus_doesnotexist")
    assert missing.value.http_status == 404 and missing.value.code == "resource_missing"
    assert missing.value.json_body["error"]["type"] == "invalid_request_error"

    with pytest.raises(stripe.InvalidRequestError) as unknown:
        stripe.Customer.create(email="a@b.co", favourite_colour="blue")
    assert unknown.value.code == "parameter_unknown" and unknown.value.param == "favourite_colour"

    with pytest.raises(stripe.InvalidRequestError) as wrong_mode:
        stripe.checkout.Session.create(
            mode="payment",
            line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
            success_url="http://x/ok",
        )
    assert "recurring price" in str(wrong_mode.value)

    with pytest.raises(stripe.AuthenticationError):
        stripe.Customer.list(api_key="sk_live_nope_this_is_not_a_test_key")
    response = requests.get(f"{fake.base_url}/v1/customers", timeout=TIMEOUT)
    assert response.status_code == 401 and "API key" in response.json()["error"]["message"]


def test_idempotency_keys_replay_and_refuse_other_parameters(fake: FakeStripe) -> None:
    first = stripe.Customer.create(email="same@tandem.local", idempotency_key="brand-12-customer")
    again = stripe.Customer.create(email="same@tandem.local", idempotency_key="brand-12-customer")
    assert again.id == first.id
    assert len(stripe.Customer.list(email="same@tandem.local").data) == 1
    with pytest.raises(stripe.IdempotencyError):
        stripe.Customer.create(email="other@tandem.local", idempotency_key="brand-12-customer")


def test_customers_list_by_email_and_page(fake: FakeStripe) -> None:
    for n in range(23):
        stripe.Customer.create(email=f"m{n}@tandem.local", metadata={"brand": str(n)})
    assert [c.email for c in stripe.Customer.list(email="m7@tandem.local").data] == ["m7@tandem.local"]
    page = stripe.Customer.list(limit=10)
    assert len(page.data) == 10 and page.has_more is True
    assert len(list(page.auto_paging_iter())) == 23
    updated = stripe.Customer.modify(page.data[0].id, name="Renamed", metadata={"plan": "monthly"})
    assert updated.name == "Renamed" and updated.metadata["plan"] == "monthly" and "brand" in updated.metadata


def test_the_stripe_client_reaches_the_fake_by_its_base_address(fake: FakeStripe) -> None:
    client = stripe.StripeClient(API_KEY, base_addresses={"api": fake.base_url}, max_network_retries=0)
    customer = client.v1.customers.create(params={"email": "client@tandem.local"})
    assert client.v1.customers.retrieve(customer.id).email == "client@tandem.local"


# --- checkout ------------------------------------------------------------------------------


def test_subscription_checkout_on_the_hosted_page_creates_the_plan_and_signed_webhooks(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer = stripe.Customer.create(email="member@tandem.local")
    session = stripe.checkout.Session.create(
        mode="subscription",
        customer=customer.id,
        client_reference_id="12",
        metadata={"brand": "12"},
        line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
        subscription_data={"metadata": {"brand": "12"}},
        success_url="http://127.0.0.1:9/account/payment-processing/{CHECKOUT_SESSION_ID}",
        cancel_url="http://127.0.0.1:9/account/subscriptions",
    )
    assert (
        session.id.startswith("cs_test_") and session.status == "open" and session.payment_status == "unpaid"
    )
    assert session.url.startswith(fake.base_url) and session.amount_total == 1999
    page = requests.get(session.url, timeout=TIMEOUT)
    assert "Tandem membership" in page.text and "£19.99" in page.text and "Subscribe" in page.text

    answer = pay_hosted_checkout(session.url, "4242 4242 4242 4242")
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"http://127.0.0.1:9/account/payment-processing/{session.id}"

    done = stripe.checkout.Session.retrieve(
        session.id, expand=["subscription", "line_items", "invoice.payments"]
    )
    assert done.status == "complete" and done.payment_status == "paid" and done.url is None
    assert done.customer == customer.id and done.customer_details.email == "member@tandem.local"
    assert done.line_items.data[0].price.id == catalogue["monthly"].id
    sub = done.subscription
    assert sub.id.startswith("sub_") and sub.status == "active" and sub.cancel_at_period_end is False
    assert sub.metadata["brand"] == "12"
    item = sub["items"].data[0]
    assert item.price.id == catalogue["monthly"].id and item.plan.interval == "month"
    assert 28 * DAY <= item.current_period_end - item.current_period_start <= 31 * DAY
    invoice = done.invoice
    assert invoice.billing_reason == "subscription_create" and invoice.status == "paid"
    assert invoice.amount_paid == 1999 and invoice.parent.subscription_details.subscription == sub.id
    assert invoice.lines.data[0].pricing.price_details.price == catalogue["monthly"].id
    intent = stripe.PaymentIntent.retrieve(invoice.payments.data[0].payment.payment_intent)
    assert intent.status == "succeeded" and intent.amount == 1999
    charge = stripe.Charge.retrieve(intent.latest_charge)
    assert charge.paid and charge.payment_method_details.card.last4 == "4242"
    listed = stripe.checkout.Session.list(subscription=sub.id)
    assert [s.id for s in listed.data] == [session.id]
    assert [s.id for s in stripe.Subscription.list(customer=customer.id).data] == [sub.id]

    receiver.wait_for_type("checkout.session.completed")
    settle(fake)
    types = receiver.types()  # every one verified with the secret, as the app verifies it
    for earlier, later in [
        ("customer.subscription.created", "invoice.created"),
        ("invoice.finalized", "invoice.paid"),
        ("invoice.paid", "customer.subscription.updated"),
        ("customer.subscription.updated", "checkout.session.completed"),
    ]:
        assert types.index(earlier) < types.index(later), types
    completed = next(e for e in receiver.events() if e.type == "checkout.session.completed")
    assert completed.data.object.client_reference_id == "12" and completed.livemode is False
    assert completed.api_version == stripe.api_version and completed.id.startswith("evt_")
    assert stripe.Event.retrieve(completed.id).data.object.id == session.id
    created = next(e for e in receiver.events() if e.type == "customer.subscription.created")
    assert created.data.object.status == "incomplete"
    updated = next(e for e in receiver.events() if e.type == "customer.subscription.updated")
    assert updated.data.previous_attributes.status == "incomplete"
    api_event = next(e for e in receiver.events() if e.type == "customer.created")
    assert api_event.request.id.startswith("req_") and api_event.request.idempotency_key
    assert [e.id for e in stripe.Event.list(type="invoice.paid").data] == [
        e.id for e in receiver.events() if e.type == "invoice.paid"
    ]


def test_a_declined_card_says_so_and_changes_nothing(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer = stripe.Customer.create(email="member@tandem.local")
    session = stripe.checkout.Session.create(
        mode="subscription",
        customer=customer.id,
        line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
        success_url="http://127.0.0.1:9/ok",
        cancel_url="http://127.0.0.1:9/cancel",
    )
    settle(fake)
    events_before = len(fake.events())
    answer = pay_hosted_checkout(session.url, "4000 0000 0000 0002")
    assert answer.status_code == 402
    assert "Your card was declined." in answer.text and 'role="alert"' in answer.text
    insufficient = pay_hosted_checkout(session.url, "4000000000009995")
    assert "Your card has insufficient funds." in insufficient.text
    invalid_number = pay_hosted_checkout(session.url, "4242 4242 4242 4241")
    assert "Your card number is invalid." in invalid_number.text
    assert stripe.checkout.Session.retrieve(session.id).status == "open"
    assert stripe.Subscription.list(customer=customer.id, status="all").data == []
    # Each declined attempt is a failed charge, as in Stripe (the invalid number never reached
    # the card network); nothing was captured.
    charges = stripe.Charge.list(customer=customer.id).data
    assert sorted(c.failure_message for c in charges) == [
        "Your card has insufficient funds.",
        "Your card was declined.",
    ]
    assert {(c.status, c.captured, c.amount_captured) for c in charges} == {("failed", False, 0)}
    # Stripe tells of the failed attempts (payment_intent.*, charge.failed); no billing event.
    told = {e["type"] for e in fake.events()[events_before:]}
    assert told == {"payment_intent.created", "charge.failed", "payment_intent.payment_failed"}
    assert not told & BILLING_EVENTS

    answer = pay_hosted_checkout(session.url, "4242424242424242")  # then a good card still works
    assert answer.status_code == 303


def test_three_d_secure_asks_for_authentication_and_a_failure_changes_nothing(
    fake: FakeStripe, catalogue: dict[str, Any]
) -> None:
    session = stripe.checkout.Session.create(
        mode="payment",
        line_items=[{"price": catalogue["credits"].id, "quantity": 2}],
        success_url="http://127.0.0.1:9/done?session={CHECKOUT_SESSION_ID}",
        payment_intent_data={"metadata": {"brand": "12", "kind": "one_off"}},
    )
    challenge = pay_hosted_checkout(session.url, "4000 0027 6000 3184")
    assert (
        challenge.status_code == 200
        and "Complete authentication" in challenge.text
        and "£10.00" in challenge.text
    )
    token = challenge_token(challenge)
    failed = answer_challenge(session.url, token, "fail")
    assert failed.status_code == 402 and "unable to authenticate" in failed.text
    assert stripe.checkout.Session.retrieve(session.id).status == "open"
    replay = answer_challenge(session.url, token)
    assert replay.status_code == 402  # a used challenge cannot be completed later

    challenge = pay_hosted_checkout(session.url, "4000002760003184")
    passed = answer_challenge(session.url, challenge_token(challenge))
    assert passed.status_code == 303 and passed.headers["Location"].endswith(f"?session={session.id}")
    done = stripe.checkout.Session.retrieve(session.id, expand=["payment_intent"])
    assert done.status == "complete" and done.payment_status == "paid" and done.invoice is None
    assert done.payment_intent.amount == 1000 and done.payment_intent.metadata["kind"] == "one_off"
    assert stripe.checkout.Session.list(payment_intent=done.payment_intent.id).data[0].id == session.id


def test_an_expired_session_cannot_be_paid_and_the_clock_expires_open_ones(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    line = [{"price": catalogue["credits"].id, "quantity": 1}]
    first = stripe.checkout.Session.create(
        mode="payment", line_items=line, success_url="http://127.0.0.1:9/ok"
    )
    expired = stripe.checkout.Session.expire(first.id)
    assert expired.status == "expired" and expired.url is None
    assert requests.get(first.url, timeout=TIMEOUT).status_code == 410
    with pytest.raises(stripe.InvalidRequestError):
        stripe.checkout.Session.expire(first.id)
    second = stripe.checkout.Session.create(
        mode="payment", line_items=line, success_url="http://127.0.0.1:9/ok"
    )
    fake.advance_clock(days=1, seconds=1)
    assert stripe.checkout.Session.retrieve(second.id).status == "expired"
    receiver.wait_for_type("checkout.session.expired", 2)


# --- the portal, the clock, plan changes ------------------------------------------------------


def test_portal_cancel_keeps_the_plan_to_the_period_end_and_the_clock_ends_it(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer, session = subscribe(catalogue)
    sub = session.subscription
    portal = stripe.billing_portal.Session.create(
        customer=customer.id, return_url="http://127.0.0.1:9/account/subscriptions/"
    )
    assert portal.id.startswith("bps_") and portal.url.startswith(fake.base_url)
    page = requests.get(portal.url, timeout=TIMEOUT)
    for text in (
        "Cancel plan",
        "Switch to yearly",
        "Return to Tandem",
        "http://127.0.0.1:9/account/subscriptions/",
        "£19.99 / month",
    ):
        assert text in page.text

    cancelled = requests.post(portal.url, data={"subscription": sub.id, "do": "cancel"}, timeout=TIMEOUT)
    assert cancelled.status_code == 200 and "Renew plan" in cancelled.text
    now_sub = stripe.Subscription.retrieve(sub.id)
    assert now_sub.cancel_at_period_end is True and now_sub.status == "active"
    assert now_sub.cancel_at == now_sub["items"].data[0].current_period_end
    receiver.wait_for(
        lambda: any(
            '"cancel_at_period_end": false' in r["body"] and '"previous_attributes"' in r["body"]
            for r in receiver.received
        )
    )

    renewed = requests.post(portal.url, data={"subscription": sub.id, "do": "renew"}, timeout=TIMEOUT)
    assert (
        "Cancel plan" in renewed.text and stripe.Subscription.retrieve(sub.id).cancel_at_period_end is False
    )
    requests.post(portal.url, data={"subscription": sub.id, "do": "cancel"}, timeout=TIMEOUT)

    fake.advance_clock(days=20)
    assert stripe.Subscription.retrieve(sub.id).status == "active"  # still valid to the period end
    fake.advance_clock(days=12)
    ended = stripe.Subscription.retrieve(sub.id)
    assert ended.status == "canceled" and ended.ended_at == now_sub.cancel_at
    assert ended.cancellation_details.reason == "cancellation_requested"
    assert stripe.Subscription.list(customer=customer.id).data == []
    assert [s.id for s in stripe.Subscription.list(customer=customer.id, status="all").data] == [sub.id]
    receiver.wait_for_type("customer.subscription.deleted")
    assert [i.billing_reason for i in stripe.Invoice.list(customer=customer.id).data] == [
        "subscription_create"
    ]


def test_renewals_bill_each_period_until_a_charge_fails_and_the_invoice_is_paid_again(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer, session = subscribe(catalogue)
    sub_id = session.subscription.id
    end = session.subscription["items"].data[0].current_period_end
    fake.advance_clock(days=62)
    invoices = stripe.Invoice.list(subscription=sub_id).data
    assert [i.billing_reason for i in invoices] == [
        "subscription_cycle",
        "subscription_cycle",
        "subscription_create",
    ]
    assert all(i.status == "paid" and i.amount_paid == 1999 for i in invoices)
    assert invoices[1].period_start == end
    sub = stripe.Subscription.retrieve(sub_id)
    assert sub["items"].data[0].current_period_start == invoices[0].period_start
    receiver.wait_for_type("invoice.paid", 3)

    fake.fail_next_charge("card_declined")
    to_period_end(fake, sub_id)  # the renewal's charge fails; its first retry is 3 days on
    failed = stripe.Invoice.list(subscription=sub_id, status="open").data[0]
    assert failed.attempt_count == 1 and failed.next_payment_attempt is not None
    assert stripe.Subscription.retrieve(sub_id).status == "past_due"
    receiver.wait_for_type("invoice.payment_failed")
    with pytest.raises(stripe.CardError):
        fake.fail_next_charge("insufficient_funds")
        stripe.Invoice.pay(failed.id)
    paid = stripe.Invoice.pay(failed.id)
    assert paid.status == "paid" and paid.attempt_count == 3
    assert stripe.Subscription.retrieve(sub_id).status == "active"

    fake.fail_next_charge("authentication_required")
    to_period_end(fake, sub_id)
    receiver.wait_for_type("invoice.payment_action_required")
    action = stripe.Invoice.list(subscription=sub_id, status="open").data[0]
    page = requests.get(action.hosted_invoice_url, timeout=TIMEOUT)
    assert page.status_code == 200 and "£19.99" in page.text
    challenge = requests.post(
        action.hosted_invoice_url, data={"card_number": "4000002760003184"}, timeout=TIMEOUT
    )
    confirmed = answer_challenge(action.hosted_invoice_url, challenge_token(challenge))
    assert "this invoice is paid" in confirmed.text
    assert stripe.Invoice.retrieve(action.id).status == "paid"
    assert stripe.Subscription.retrieve(sub_id).status == "active"


def test_unpaid_renewals_end_the_plan_after_the_last_retry(
    fake: FakeStripe, catalogue: dict[str, Any]
) -> None:
    _, session = subscribe(catalogue)
    sub_id = session.subscription.id
    fake.fail_next_charge("card_declined", count=4)
    to_period_end(fake, sub_id, past=(3 + 5 + 7) * DAY + 3600)  # the renewal, then its 3 retries
    sub = stripe.Subscription.retrieve(sub_id)
    assert sub.status == "canceled" and sub.cancellation_details.reason == "payment_failed"
    assert stripe.Invoice.list(subscription=sub_id, status="open").data[0].attempt_count == 4


def test_monthly_to_yearly_charges_the_year_less_the_unused_month(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer, session = subscribe(catalogue)
    sub = session.subscription
    fake.advance_clock(days=10)
    item = sub["items"].data[0]
    fake.fail_next_charge("card_declined")
    with pytest.raises(stripe.CardError):  # error_if_incomplete: a failed charge leaves the plan as it was
        stripe.Subscription.modify(
            sub.id,
            items=[{"id": item.id, "price": catalogue["yearly"].id}],
            payment_behavior="error_if_incomplete",
        )
    assert stripe.Subscription.retrieve(sub.id)["items"].data[0].price.id == catalogue["monthly"].id
    assert len(stripe.Invoice.list(subscription=sub.id).data) == 1
    updated = stripe.Subscription.modify(
        sub.id,
        items=[{"id": item.id, "price": catalogue["yearly"].id}],
        proration_behavior="create_prorations",
    )
    new_item = updated["items"].data[0]
    assert (
        new_item.id == item.id
        and new_item.price.id == catalogue["yearly"].id
        and new_item.plan.interval == "year"
    )
    assert new_item.current_period_start == fake.now() or abs(new_item.current_period_start - fake.now()) <= 2
    assert 365 * DAY <= new_item.current_period_end - new_item.current_period_start <= 366 * DAY
    invoice = stripe.Invoice.retrieve(updated.latest_invoice)
    assert invoice.billing_reason == "subscription_update" and invoice.status == "paid"
    lines = invoice.lines.data
    credit = [line for line in lines if line.amount < 0]
    assert len(credit) == 1 and credit[0].parent.invoice_item_details.proration is True
    period = item.current_period_end - item.current_period_start
    expected_credit = round(
        1999 * (item.current_period_end - (item.current_period_start + 10 * DAY)) / period
    )
    assert abs(-credit[0].amount - expected_credit) <= 2
    assert invoice.total == 19900 + credit[0].amount and invoice.amount_paid == invoice.total
    receiver.wait_for(
        lambda: any(
            '"billing_reason": "subscription_update"' in r["body"] and '"invoice.paid"' in r["body"]
            for r in receiver.received
        )
    )


def test_portal_switch_to_yearly_invoices_at_once(fake: FakeStripe, catalogue: dict[str, Any]) -> None:
    customer, session = subscribe(catalogue)
    portal = stripe.billing_portal.Session.create(customer=customer.id, return_url="http://127.0.0.1:9/back")
    answer = requests.post(
        portal.url,
        data={"subscription": session.subscription.id, "switch_to": catalogue["yearly"].id},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200 and "Your plan is now £199.00 / year" in answer.text
    sub = stripe.Subscription.retrieve(session.subscription.id, expand=["latest_invoice"])
    assert sub.latest_invoice.billing_reason == "subscription_update" and sub.latest_invoice.status == "paid"
    refused = requests.post(
        portal.url,
        data={"subscription": session.subscription.id, "switch_to": catalogue["credits"].id},
        timeout=TIMEOUT,
    )
    assert refused.status_code == 400


def test_a_same_interval_change_waits_for_the_next_invoice_unless_always_invoice(
    fake: FakeStripe, catalogue: dict[str, Any]
) -> None:
    _, session = subscribe(catalogue)
    sub = session.subscription
    dearer = stripe.Price.create(
        product=catalogue["product"].id, currency="gbp", unit_amount=2999, recurring={"interval": "month"}
    )
    item = sub["items"].data[0]
    stripe.Subscription.modify(sub.id, items=[{"id": item.id, "price": dearer.id}])
    assert len(stripe.Invoice.list(subscription=sub.id).data) == 1  # prorations wait for the renewal
    fake.advance_clock(days=32)
    renewal = stripe.Invoice.list(subscription=sub.id).data[0]
    assert renewal.billing_reason == "subscription_cycle"
    prorated = [line for line in renewal.lines.data if line.parent.type == "invoice_item_details"]
    assert len(prorated) == 2 and {line.amount > 0 for line in prorated} == {True, False}
    assert renewal.total == 2999 + sum(line.amount for line in prorated)


# --- payment links, refunds ---------------------------------------------------------------------


def test_a_payment_link_carries_the_brand_and_email_into_checkout(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    link = stripe.PaymentLink.create(
        line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
        metadata={"kind": "monthly"},
        subscription_data={"metadata": {"kind": "monthly"}},
        after_completion={
            "type": "redirect",
            "redirect": {"url": "http://127.0.0.1:9/paid/{CHECKOUT_SESSION_ID}"},
        },
    )
    assert link.id.startswith("plink_") and link.url.startswith(fake.base_url) and link.active
    assert stripe.PaymentLink.retrieve(link.id, expand=["line_items"]).line_items.data[0].price.id == (
        catalogue["monthly"].id
    )
    opened = requests.get(
        link.url,
        params={"client_reference_id": "brand_12", "prefilled_email": "member@tandem.local"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert opened.status_code == 303
    session_url = fake.base_url + opened.headers["Location"]
    page = requests.get(session_url, timeout=TIMEOUT)
    assert 'value="member@tandem.local"' in page.text
    answer = pay_hosted_checkout(session_url, "4242424242424242", email="member@tandem.local")
    assert answer.status_code == 303
    session_id = answer.headers["Location"].rsplit("/", 1)[1]
    session = stripe.checkout.Session.retrieve(session_id, expand=["subscription"])
    assert session.client_reference_id == "brand_12" and session.payment_link == link.id
    assert session.metadata["kind"] == "monthly" and session.subscription.metadata["kind"] == "monthly"
    assert session.customer_details.email == "member@tandem.local"
    assert stripe.Customer.retrieve(session.customer).email == "member@tandem.local"
    assert [s.id for s in stripe.checkout.Session.list(payment_link=link.id).data] == [session_id]

    off = stripe.PaymentLink.modify(link.id, active=False)
    assert off.active is False
    assert requests.get(link.url, timeout=TIMEOUT).status_code == 410
    assert link.id in [p.id for p in stripe.PaymentLink.list(active=False).data]
    dropped = requests.get(
        stripe.PaymentLink.create(line_items=[{"price": catalogue["credits"].id, "quantity": 1}]).url,
        params={"client_reference_id": "not valid!"},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    dropped_session = stripe.checkout.Session.retrieve(dropped.headers["Location"].rsplit("/", 1)[1])
    assert dropped_session.client_reference_id is None and dropped_session.mode == "payment"


def test_a_refund_marks_the_charge_and_sends_charge_refunded(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer = stripe.Customer.create(email="member@tandem.local")
    session = stripe.checkout.Session.create(
        mode="payment",
        customer=customer.id,
        line_items=[{"price": catalogue["credits"].id, "quantity": 1}],
        success_url="http://127.0.0.1:9/ok",
        invoice_creation={"enabled": True, "invoice_data": {"metadata": {"kind": "one_off"}}},
    )
    assert pay_hosted_checkout(session.url, "4242424242424242").status_code == 303
    done = stripe.checkout.Session.retrieve(session.id, expand=["invoice"])
    assert done.invoice.billing_reason == "manual" and done.invoice.status == "paid"
    assert done.invoice.metadata["kind"] == "one_off"
    part = stripe.Refund.create(
        payment_intent=done.payment_intent, amount=200, reason="requested_by_customer"
    )
    assert part.id.startswith("re_") and part.status == "succeeded" and part.amount == 200
    rest = stripe.Refund.create(charge=part.charge)
    assert rest.amount == 300
    charge = stripe.Charge.retrieve(part.charge)
    assert charge.refunded is True and charge.amount_refunded == 500
    with pytest.raises(stripe.InvalidRequestError) as again:
        stripe.Refund.create(charge=part.charge)
    assert again.value.code == "charge_already_refunded"
    receiver.wait_for_type("charge.refunded", 2)
    last = [e for e in receiver.events() if e.type == "charge.refunded"][-1]
    assert last.data.object.amount_refunded == 500 and last.data.previous_attributes.amount_refunded == 200
    assert [r.id for r in stripe.Refund.list(charge=part.charge).data] == [rest.id, part.id]


def test_events_leave_out_the_ones_a_test_already_has(fake: FakeStripe) -> None:
    stripe.Customer.create(email="first@tandem.local")
    (first,) = fake.events("customer.created")
    stripe.Customer.create(email="second@tandem.local")
    everything = fake.events()
    assert fake.event_types() == [e["type"] for e in everything]
    (second,) = fake.events("customer.created", skip={first["id"]})
    assert second["data"]["object"]["email"] == "second@tandem.local"
    assert fake.events(skip={e["id"] for e in everything}) == []
    assert fake.event_types(skip={e["id"] for e in everything if e["id"] != second["id"]}) == [
        "customer.created"
    ]


# --- delivery controls ------------------------------------------------------------------------


def test_paused_events_can_be_reordered_duplicated_and_redelivered(
    fake: FakeStripe, receiver: Receiver
) -> None:
    fake.pause_delivery()
    made = [stripe.Customer.create(email=f"c{n}@tandem.local") for n in range(3)]
    ids = [e["id"] for e in fake.events("customer.created")]
    assert receiver.received == []
    assert fake.reorder_pending("reverse") == ids[::-1]
    fake.resume_delivery()
    settle(fake)
    assert [e.id for e in receiver.events()] == ids[::-1]
    assert [e.data.object.id for e in receiver.events()] == [c.id for c in made][::-1]

    fake.duplicate_events(2, ["customer.*"])
    stripe.Customer.create(email="twice@tandem.local")
    settle(fake)
    twice = [e for e in receiver.events() if e.data.object.to_dict().get("email") == "twice@tandem.local"]
    assert len(twice) == 2 and twice[0].id == twice[1].id
    fake.duplicate_events(1)

    fake.redeliver(ids[0])
    settle(fake)
    assert [e.id for e in receiver.events()].count(ids[0]) == 2

    fake.pause_delivery()
    stripe.Customer.create(email="shuffle1@tandem.local")
    stripe.Customer.create(email="shuffle2@tandem.local")
    pending = fake.reorder_pending("shuffle", seed=3)
    fake.resume_delivery()
    settle(fake)
    assert [e.id for e in receiver.events()][-2:] == pending


def test_a_delayed_event_arrives_after_later_ones(fake: FakeStripe, receiver: Receiver) -> None:
    fake.delay_events(0.5, ["customer.updated"])
    customer = stripe.Customer.create(email="late@tandem.local")
    stripe.Customer.modify(customer.id, name="Late")
    fake.delay_events(0)
    stripe.Customer.create(email="after@tandem.local")
    receiver.wait_for_type("customer.updated")
    assert receiver.types() == ["customer.created", "customer.created", "customer.updated"]


def test_a_failing_endpoint_is_retried_with_backoff_until_it_answers(
    fake: FakeStripe, receiver: Receiver
) -> None:
    receiver.fail_next = 2
    stripe.Customer.create(email="retry@tandem.local")
    settle(fake)
    delivery = fake.deliveries()[-1]
    assert delivery["status"] == "succeeded" and delivery["type"] == "customer.created"
    assert [a["status"] for a in delivery["attempts"]] == [500, 500, 200]
    assert delivery["attempts"][0]["response"] == "boom"
    assert len(receiver.events()) == 1  # the 500 answers are not counted as received

    receiver.fail_next = 10  # more than the retries: the delivery gives up (bounded)
    stripe.Customer.create(email="never@tandem.local")
    settle(fake)
    given_up = fake.deliveries()[-1]
    assert given_up["status"] == "failed" and len(given_up["attempts"]) == 4


def test_an_unreachable_endpoint_fails_after_bounded_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    unreachable = f"http://127.0.0.1:{_unused_port()}/api/stripe/webhook"
    with FakeStripe(webhook_url=unreachable, webhook_secret=SECRET, retry_delays=(0.01, 0.01)) as lonely:
        monkeypatch.setattr(stripe, "api_base", lonely.start(0))
        monkeypatch.setattr(stripe, "api_key", API_KEY)
        stripe.Customer.create(email="alone@tandem.local")
        assert lonely.wait_for_deliveries(TIMEOUT)
        delivery = lonely.deliveries()[0]
        assert delivery["status"] == "failed" and len(delivery["attempts"]) == 3
        assert all(a["status"] is None and "ConnectionError" in a["error"] for a in delivery["attempts"])


def test_controls_work_over_http_too(fake: FakeStripe, receiver: Receiver) -> None:
    base = fake.base_url
    before = requests.get(f"{base}/_test/clock", timeout=TIMEOUT).json()["now"]
    after = requests.post(f"{base}/_test/clock/advance", data={"days": "2"}, timeout=TIMEOUT).json()["now"]
    assert after - before >= 2 * DAY
    assert requests.post(f"{base}/_test/delivery/pause", timeout=TIMEOUT).json() == {"paused": True}
    stripe.Customer.create(email="a@tandem.local")
    stripe.Customer.create(email="b@tandem.local")
    order = requests.post(f"{base}/_test/delivery/reorder", json={"order": "reverse"}, timeout=TIMEOUT).json()
    requests.post(f"{base}/_test/delivery/resume", timeout=TIMEOUT)
    settle(fake)
    assert [e.id for e in receiver.events()] == order["pending"]
    listed = requests.get(f"{base}/_test/deliveries", timeout=TIMEOUT).json()["data"]
    assert {d["status"] for d in listed} == {"succeeded"}
    again = requests.post(f"{base}/_test/events/{order['pending'][0]}/redeliver", timeout=TIMEOUT).json()
    assert len(again["data"]) == 1
    bad = requests.post(f"{base}/_test/charges/fail-next", data={"code": "bogus"}, timeout=TIMEOUT)
    assert bad.status_code == 400 and "bogus" in bad.json()["error"]["message"]
    assert (
        requests.post(
            f"{base}/_test/charges/fail-next", data={"code": "card_declined"}, timeout=TIMEOUT
        ).status_code
        == 200
    )
    assert requests.get(f"{base}/_test/nothing", timeout=TIMEOUT).status_code == 404


def test_state_survives_a_restart_with_a_state_file(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    path = tmp_path / "fake-stripe.json"
    with FakeStripe(webhook_url=receiver.url, webhook_secret=SECRET, state_file=path) as first:
        monkeypatch.setattr(stripe, "api_base", first.start(0))
        monkeypatch.setattr(stripe, "api_key", API_KEY)
        product = stripe.Product.create(name="Tandem membership")
        monthly = stripe.Price.create(
            product=product.id, currency="gbp", unit_amount=1999, recurring={"interval": "month"}
        )
        customer, session = subscribe({"monthly": monthly})
        dearer = stripe.Price.create(
            product=product.id, currency="gbp", unit_amount=2999, recurring={"interval": "month"}
        )
        item = session.subscription["items"].data[0]
        stripe.Subscription.modify(session.subscription.id, items=[{"id": item.id, "price": dearer.id}])
        first.advance_clock(days=3)
        clock = first.now()
        assert first.wait_for_deliveries(TIMEOUT)
        first.pause_delivery()
        held = stripe.Customer.create(email="held@tandem.local", idempotency_key="held-1")
    with FakeStripe(webhook_url=receiver.url, webhook_secret=SECRET, state_file=path) as second:
        monkeypatch.setattr(stripe, "api_base", second.start(0))
        assert stripe.Customer.retrieve(customer.id).email == "member@tandem.local"
        assert stripe.Customer.create(email="held@tandem.local", idempotency_key="held-1").id == held.id
        assert second.now() >= clock
        assert len(second.store.all("webhook_endpoint")) == 1  # the saved endpoint is reused, not doubled
        assert [d["status"] for d in second.deliveries() if d["type"] == "customer.created"][-1] == "pending"
        second.resume_delivery()  # what was held before the restart is delivered after it
        receiver.wait_for(lambda: any("held@tandem.local" in r["body"] for r in receiver.received))
        second.advance_clock(days=30)  # the renewal carries the prorations saved before the restart
        renewal = stripe.Invoice.list(subscription=session.subscription.id).data[0]
        assert renewal.billing_reason == "subscription_cycle" and len(renewal.lines.data) == 3


def test_a_trial_starts_free_warns_before_it_ends_then_bills(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer = stripe.Customer.create(email="trial@tandem.local")
    session = stripe.checkout.Session.create(
        mode="subscription",
        customer=customer.id,
        line_items=[{"price": catalogue["monthly"].id, "quantity": 1}],
        subscription_data={"trial_period_days": 7, "metadata": {"brand": "12"}},
        success_url="http://127.0.0.1:9/ok",
    )
    assert "7 days free" in requests.get(session.url, timeout=TIMEOUT).text
    assert pay_hosted_checkout(session.url, "4242424242424242", email="trial@tandem.local").status_code == 303
    done = stripe.checkout.Session.retrieve(session.id, expand=["subscription.latest_invoice"])
    assert done.payment_status == "no_payment_required"
    sub = done.subscription
    assert sub.status == "trialing" and sub.trial_end - sub.trial_start == 7 * DAY
    assert sub.latest_invoice.amount_paid == 0 and sub.latest_invoice.status == "paid"
    assert stripe.Charge.list(customer=customer.id).data == []

    fake.advance_clock(days=4, seconds=1)
    receiver.wait_for_type("customer.subscription.trial_will_end")
    assert stripe.Subscription.retrieve(sub.id).status == "trialing"
    fake.advance_clock(days=3)
    billed = stripe.Subscription.retrieve(sub.id, expand=["latest_invoice"])
    assert billed.status == "active" and billed.latest_invoice.billing_reason == "subscription_cycle"
    assert billed.latest_invoice.amount_paid == 1999
    assert billed["items"].data[0].current_period_start == sub.trial_end


def test_cancelling_through_the_api_ends_the_plan_at_once(
    fake: FakeStripe, receiver: Receiver, catalogue: dict[str, Any]
) -> None:
    customer, session = subscribe(catalogue)
    listed = stripe.Subscription.list(customer=customer.id, expand=["data.latest_invoice"])
    assert listed.data[0].latest_invoice.billing_reason == "subscription_create"
    cancelled = stripe.Subscription.cancel(
        session.subscription.id, cancellation_details={"comment": "refund"}
    )
    assert cancelled.status == "canceled" and cancelled.ended_at is not None
    assert cancelled.cancellation_details.comment == "refund"
    with pytest.raises(stripe.InvalidRequestError):
        stripe.Subscription.modify(session.subscription.id, cancel_at_period_end=True)
    receiver.wait_for_type("customer.subscription.deleted")
    fake.advance_clock(days=40)  # nothing renews
    assert len(stripe.Invoice.list(customer=customer.id).data) == 1


def test_webhook_endpoints_made_through_the_api_get_their_own_secret_and_events(
    fake: FakeStripe, receiver: Receiver
) -> None:
    endpoint = stripe.WebhookEndpoint.create(url=receiver.url, enabled_events=["customer.updated"])
    assert endpoint.id.startswith("we_") and endpoint.secret.startswith("whsec_")
    assert "secret" not in stripe.WebhookEndpoint.retrieve(endpoint.id)
    customer = stripe.Customer.create(email="hooks@tandem.local")
    stripe.Customer.modify(customer.id, name="Hooked")
    settle(fake)
    mine = [d for d in fake.deliveries() if d["endpoint"] == endpoint.id]
    assert [d["type"] for d in mine] == ["customer.updated"]

    def signed_with(record: dict[str, Any], secret: str) -> bool:
        try:
            stripe.Webhook.construct_event(record["body"], record["signature"], secret)
        except stripe.SignatureVerificationError:
            return False
        return True

    theirs = [r for r in receiver.received if signed_with(r, endpoint.secret)]
    assert len(theirs) == 1 and not signed_with(theirs[0], SECRET)
    event = stripe.Webhook.construct_event(theirs[0]["body"], theirs[0]["signature"], endpoint.secret)
    assert event.type == "customer.updated" and event.data.previous_attributes.name is None
    assert stripe.WebhookEndpoint.delete(endpoint.id).deleted is True
    assert "Local Stripe" in requests.get(fake.base_url + "/", timeout=TIMEOUT).text


def test_the_other_endpoints_the_app_may_call(fake: FakeStripe, catalogue: dict[str, Any]) -> None:
    customer, session = subscribe(catalogue)
    sub = session.subscription
    invoice = stripe.Invoice.retrieve(sub.latest_invoice, expand=["payments"])
    intent_id = invoice.payments.data[0].payment.payment_intent
    assert stripe.Charge.list(payment_intent=intent_id).data[0].amount == 1999
    assert stripe.PaymentIntent.list(customer=customer.id).data[0].id == intent_id
    assert [s.id for s in stripe.checkout.Session.list(customer=customer.id, status="complete").data] == [
        session.id
    ]
    assert {e.type for e in stripe.Event.list(types=["invoice.paid", "invoice.finalized"]).data} == {
        "invoice.paid",
        "invoice.finalized",
    }
    renamed = stripe.Product.modify(
        catalogue["product"].id, name="Tandem", default_price=catalogue["monthly"].id
    )
    assert renamed.name == "Tandem" and renamed.default_price == catalogue["monthly"].id
    with pytest.raises(stripe.InvalidRequestError):
        stripe.Product.delete(catalogue["product"].id)  # it has prices
    spare = stripe.Product.create(name="Spare", id="tandem_spare")
    assert spare.id == "tandem_spare" and stripe.Product.delete("tandem_spare").deleted is True

    config = stripe.billing_portal.Configuration.create(
        features={
            "subscription_cancel": {"enabled": True, "mode": "immediately"},
            "subscription_update": {
                "enabled": True,
                "default_allowed_updates": ["price"],
                "products": [{"product": catalogue["product"].id, "prices": [catalogue["monthly"].id]}],
            },
        },
        default_return_url="http://127.0.0.1:9/account",
    )
    portal = stripe.billing_portal.Session.create(customer=customer.id, configuration=config.id)
    assert portal.return_url == "http://127.0.0.1:9/account"
    page = requests.get(portal.url, timeout=TIMEOUT).text
    assert "Switch to yearly" not in page  # the configuration offers no yearly price
    requests.post(portal.url, data={"subscription": sub.id, "do": "cancel"}, timeout=TIMEOUT)
    assert stripe.Subscription.retrieve(sub.id).status == "canceled"

    link = stripe.PaymentLink.create(line_items=[{"price": catalogue["credits"].id, "quantity": 1}])
    line_id = stripe.PaymentLink.list_line_items(link.id).data[0].id
    stripe.PaymentLink.modify(link.id, line_items=[{"id": line_id, "quantity": 3}])
    assert stripe.PaymentLink.list_line_items(link.id).data[0].quantity == 3

    gone = stripe.Customer.delete(customer.id)
    assert gone.deleted is True and stripe.Customer.retrieve(customer.id).deleted is True


def test_a_subscription_records_the_billing_mode_asked_for_and_stripes_default_otherwise() -> None:
    """Since API 2025-09-30 a new subscription is `flexible` unless the call says `classic`
    (issue 21): the fake records what was asked; Tandem's checkouts always say classic."""
    from infra.local.fake_stripe import FakeStripe
    from infra.local.fake_stripe.engine import DEFAULT_BILLING_MODE

    assert DEFAULT_BILLING_MODE == "flexible"
    fake = FakeStripe(api_key="sk_test_modes")
    fake.start(0)
    try:
        import stripe

        client = stripe.StripeClient("sk_test_modes", base_addresses={"api": fake.base_url})
        product = client.v1.products.create({"name": "Plan"})
        price = client.v1.prices.create(
            {"product": product.id, "unit_amount": 100, "currency": "gbp", "recurring": {"interval": "month"}}
        )
        customer = client.v1.customers.create({"email": "modes@tandem.local"})
        made = {}
        for mode in ("classic", None):
            data = {"billing_mode": {"type": mode}} if mode else {}
            session = client.v1.checkout.sessions.create(
                {
                    "mode": "subscription",
                    "customer": customer.id,
                    "line_items": [{"price": price.id, "quantity": 1}],
                    "success_url": "https://example.test/ok",
                    "subscription_data": data,
                }
            )
            assert session.ui_mode == "hosted_page"
            assert pay_hosted_checkout(session.url, email="modes@tandem.local", name="M").status_code == 303
            paid = client.v1.checkout.sessions.retrieve(session.id)
            made[mode] = client.v1.subscriptions.retrieve(paid.subscription).billing_mode.type
        assert made == {"classic": "classic", None: "flexible"}
    finally:
        fake.stop()
