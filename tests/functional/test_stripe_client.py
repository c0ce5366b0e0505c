"""The app's Stripe calls against the local fake (started in-process on an OS-chosen port), with
the catalogue made by stripe_sync, the hosted pages driven as a browser drives them (form
posts), and the result read back as sync_customer reads it: fetch_customer_snapshot then
billing.compute."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from infra import stripe_sync
from infra.local.fake_stripe import FakeStripe
from infra.local.fake_stripe.browser import pay_hosted_checkout
from tandem.domain import billing
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.integrations import stripe_client as sc
from tandem.services import billing as billing_service

API_KEY = "sk_test_client"
SITE = "https://tandem.test"
DAY = 86400
TIMEOUT = 60  # a bound for a stuck server, not a speed target


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeStripe]:
    f = FakeStripe(api_key=API_KEY)
    f.start(0)
    monkeypatch.setenv("STRIPE_API_KEY", API_KEY)
    monkeypatch.setenv("STRIPE_API_BASE", f.base_url)
    sc.reset_client()
    stripe_sync.Sync(sc.client(), SITE, log=lambda _: None).run()
    yield f
    sc.reset_client()
    f.stop()


pay = functools.partial(pay_hosted_checkout, email="mia@tandem.local")  # Mia pays on the hosted page


def checkout(customer: str, lookup_key: str = "tandem_main_monthly", **kwargs: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "customer": customer,
        "lookup_key": lookup_key,
        "account_id": "acc_1",
        "brand_id": "12",
        "user_id": "u_1",
        "site_url": SITE,
    }
    return sc.create_checkout_session(**{**params, **kwargs})


def subscribe(fake: FakeStripe, lookup_key: str = "tandem_main_monthly") -> tuple[str, dict[str, Any]]:
    customer = sc.create_customer("acc_1", email="mia@tandem.local", name="Mia", brand_id="12")
    session = checkout(customer, lookup_key)
    answer = pay(session["url"])
    assert answer.status_code == 303, answer.text
    assert answer.headers["Location"] == f"{SITE}/account/subscriptions/payment-processing/{session['id']}"
    return customer, session


def state_of(fake: FakeStripe, customer: str | list[str], record: dict | None = None) -> billing.BillingState:
    return billing.compute(sc.fetch_customer_snapshot(customer), record, fake.now())


def test_a_checkout_on_the_hosted_page_gives_an_active_monthly_plan_with_one_grant_of_six(
    fake: FakeStripe,
) -> None:
    customer, session = subscribe(fake)
    state = state_of(fake, customer)
    assert state.status == "active" and state.plan == "monthly" and state.main_product_id == "tandem_main"
    made = billing.grants_to_make(state, [], fake.now())
    assert [(g.kind, g.amount) for g in made] == [("main", 6)]
    assert made[0].key == f"main:{state.subscription_id}:{made[0].key.rsplit(':', 1)[1]}"
    assert (
        made[0].valid_to == state.period_end and 28 * DAY <= state.period_end - state.period_start <= 31 * DAY
    )
    assert state.has_new_payment and state.payments[0].amount == 4900

    seen = sc.get_checkout_session(session["id"])
    assert seen["status"] == "complete" and seen["payment_status"] == "paid"
    assert seen["client_reference_id"] == "12"
    assert seen["metadata"] == {
        "account": "acc_1",
        "brand": "12",
        "kind": "main",
        "user": "u_1",
        "lookup_key": "tandem_main_monthly",
        "page": "account",
    }
    sub = sc.client().v1.subscriptions.retrieve(state.subscription_id)
    assert sub.metadata["account"] == "acc_1"  # subscription_data carries the same metadata
    with pytest.raises(NotFound):
        sc.get_checkout_session("cs_test_doesnotexist")
    with pytest.raises(NotFound):
        sc.get_checkout_session("../customers")


def test_the_snapshot_reads_what_compute_needs(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    snapshot = sc.fetch_customer_snapshot(customer)
    assert isinstance(snapshot["subscriptions"][0], dict)  # plain dicts, not StripeObjects
    item = snapshot["subscriptions"][0]["items"]["data"][0]
    assert item["price"]["metadata"]["tandem_kind"] == "main" and item["current_period_end"] > 0
    invoice = snapshot["invoices"][0]
    assert invoice["payments"]["data"][0]["payment"]["payment_intent"].startswith("pi_")
    assert snapshot["checkout_sessions"][0]["line_items"]["data"][0]["price"]["lookup_key"] == (
        "tandem_main_monthly"
    )
    assert snapshot["charges"][0]["refunds"]["data"] == []
    assert snapshot["prices"] == []  # every line's price is on an item already
    with pytest.raises(ValueError, match="cus_"):
        sc.fetch_customer_snapshot("acc_1")


def test_the_snapshot_reads_every_page_and_equals_what_the_library_objects_give(
    fake: FakeStripe, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lists are read as Stripe's JSON (no StripeObjects): page after page, and the same
    data the library's objects give (`to_dict()`, which nests objects of its own)."""
    customer, _ = subscribe(fake)
    session = checkout(customer, "tandem_extra_6")
    assert pay(session["url"]).status_code == 303  # a second invoice, charge and session
    whole = sc.fetch_customer_snapshot(customer)
    assert len(whole["invoices"]) == len(whole["charges"]) == len(whole["checkout_sessions"]) == 2
    listed = sc.client().v1.invoices.list({"customer": customer, "expand": ["data.payments"]})
    objects = [invoice.to_dict() for invoice in listed]
    same = json.dumps(whole["invoices"], sort_keys=True, default=str)  # the library's decimals as text
    assert same == json.dumps(objects, sort_keys=True, default=str)
    monkeypatch.setattr(sc, "PAGE_SIZE", 1)  # one object a page: every list takes two pages
    assert sc.fetch_customer_snapshot(customer) == whole


def test_two_tabs_get_one_checkout_and_a_paid_one_is_never_handed_out_again(fake: FakeStripe) -> None:
    customer = sc.create_customer("acc_1", email="mia@tandem.local")
    assert sc.create_customer("acc_1", email="mia@tandem.local") == customer  # idempotent per account
    first, second = checkout(customer), checkout(customer)
    assert first["id"] == second["id"] and first["status"] == "open"
    assert checkout(customer, "tandem_main_yearly")["id"] != first["id"]  # another intent, another session
    assert pay(first["url"]).status_code == 303
    third = checkout(customer)
    assert third["id"] != first["id"] and third["status"] == "open"
    subs = sc.client().v1.subscriptions.list({"customer": customer, "status": "all"}).data
    assert len(subs) == 1


def test_upgrading_to_yearly_in_the_same_month_adds_no_second_six(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    before = state_of(fake, customer)
    granted = [g.key for g in billing.grants_to_make(before, [], fake.now())]
    fake.advance_clock(days=10)

    result = sc.upgrade_to_yearly(before.subscription_id)
    assert result["ok"] is True and result["invoice_status"] == "paid"
    after = state_of(fake, customer)
    assert after.status == "active" and after.is_yearly and after.plan == "yearly"
    assert billing.grants_to_make(after, granted, fake.now()) == []
    upgrade = next(p for p in after.payments if p.billing_reason == "subscription_update")
    assert 0 < upgrade.amount < 47000  # the unused month was credited
    with pytest.raises(Conflict, match="already yearly"):
        sc.upgrade_to_yearly(before.subscription_id)

    fake.advance_clock(days=25)  # past the paid month: the yearly credits take over
    later = state_of(fake, customer)
    due = billing.grants_to_make(later, granted, fake.now())
    assert [(g.kind, g.amount, g.payment) for g in due] == [("main", 6, upgrade.id)]


def test_a_failed_upgrade_payment_leaves_an_invoice_to_pay(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    state = state_of(fake, customer)
    fake.fail_next_charge("card_declined")
    result = sc.upgrade_to_yearly(state.subscription_id)
    assert result["ok"] is False and result["invoice_status"] == "open" and result["hosted_invoice_url"]
    after = state_of(fake, customer)
    assert after.payment_failed and after.open_invoice_url == result["hosted_invoice_url"]


def test_cancelling_in_the_portal_keeps_the_plan_valid_to_the_period_end(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    state = state_of(fake, customer)
    url = sc.create_portal_session(customer, f"{SITE}/account/subscriptions/")
    page = requests.get(url, timeout=TIMEOUT)
    assert "Switch to yearly" in page.text and f"{SITE}/account/subscriptions/" in page.text
    answer = requests.post(url, data={"subscription": state.subscription_id, "do": "cancel"}, timeout=TIMEOUT)
    assert answer.status_code == 200 and "Renew plan" in answer.text

    cancelled = state_of(fake, customer)
    assert cancelled.status == "cancelled" and cancelled.valid_to == state.period_end
    assert cancelled.cancel_at == state.period_end and cancelled.cancelled_at is not None
    fake.advance_clock(days=32)
    ended = state_of(fake, customer)
    assert ended.status == "none" and ended.subscription_id is None
    assert len(ended.grants) == 1  # no renewal, no new credits
    with pytest.raises(ValidationError):
        sc.create_portal_session(customer, "javascript:alert(1)")


def test_a_declined_card_leaves_no_subscription_and_no_credits(fake: FakeStripe) -> None:
    customer = sc.create_customer("acc_1", email="mia@tandem.local")
    session = checkout(customer)
    answer = pay(session["url"], "4000 0000 0000 0002")
    assert answer.status_code == 402 and "Your card was declined." in answer.text
    snapshot = sc.fetch_customer_snapshot(customer)
    assert snapshot["subscriptions"] == [] and snapshot["invoices"] == []
    state = billing.compute(snapshot, {}, fake.now())
    assert state.status == "none" and state.grants == ()
    assert sc.get_checkout_session(session["id"])["status"] == "open"


def test_a_refund_within_thirty_days_ends_the_plan_and_takes_the_credits_back(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    granted = [g.key for g in billing.grants_to_make(state_of(fake, customer), [], fake.now())]
    fake.advance_clock(days=12)
    refunded = billing_service.refund_latest_payment(customer, now=fake.now())
    assert refunded["amount"] == 4900 and refunded["refund"].startswith("re_") and refunded["cancelled"]
    state = state_of(fake, customer)
    assert state.status == "none" and billing.revocations(state, granted) == granted
    assert state.payments[0].fully_refunded
    sub = sc.client().v1.subscriptions.retrieve(refunded["cancelled"])
    assert sub.status == "canceled"
    with pytest.raises(Conflict, match="no payment from the last 30 days"):
        billing_service.refund_latest_payment(customer, now=fake.now())


def test_an_admin_can_refund_the_plan_rather_than_a_later_pack(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    extra = checkout(customer, "tandem_extra_3")
    pay(extra["url"])
    plan_payment = next(p for p in state_of(fake, customer).payments if p.kind == "main")
    with pytest.raises(NotFound):
        billing_service.refund_latest_payment(customer, now=fake.now(), payment_id="in_unknown")
    refunded = billing_service.refund_latest_payment(customer, now=fake.now(), payment_id=plan_payment.id)
    assert refunded["payment"] == plan_payment.id and refunded["cancelled"] == plan_payment.subscription
    state = state_of(fake, customer)
    assert state.status == "none" and any(g.key == f"extra:{extra['id']}" for g in state.grants)
    with pytest.raises(Conflict, match="already been refunded"):
        billing_service.refund_latest_payment(customer, now=fake.now(), payment_id=plan_payment.id)


def test_no_money_back_after_thirty_days(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake, "tandem_main_yearly")
    fake.advance_clock(days=31)
    with pytest.raises(Conflict):
        billing_service.refund_latest_payment(customer, now=fake.now())
    state = state_of(fake, customer)
    assert state.status == "active" and len(billing.due_main_grants(state, fake.now())) == 2


def test_extra_credits_and_a_three_month_access(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    extra = checkout(
        customer,
        "tandem_extra_3",
        page_type="pitch",
        return_path=billing_service.payment_return_path("pitch"),
        quantity=2,
    )
    assert pay(extra["url"]).headers["Location"] == f"{SITE}/pitch/payment-processing/{extra['id']}"
    state = state_of(fake, customer)
    extras = [g for g in state.grants if g.kind == "add-on-one-time"]
    assert [(g.key, g.amount, g.valid_to - g.valid_from) for g in extras] == [
        (f"extra:{extra['id']}", 6, 30 * DAY)
    ]
    invoices = sc.client().v1.invoices.list({"customer": customer}).data
    assert any(i.billing_reason == "manual" for i in invoices)  # a receipt, not a second grant
    assert len([g for g in state.grants if g.payment == extra["id"]]) == 1

    other = sc.create_customer("acc_2", email="leo@tandem.local")
    access = sc.create_checkout_session(
        customer=other,
        lookup_key="tandem_access_3_months",
        account_id="acc_2",
        brand_id="44",
        user_id="u_2",
        page_type="match",
        return_path=billing_service.payment_return_path("match", item_id="77"),
        site_url=SITE,
    )
    assert (
        pay(access["url"]).headers["Location"] == f"{SITE}/matches/brand/77/payment-processing/{access['id']}"
    )
    fixed = state_of(fake, other)
    assert fixed.status == "fixed_term" and fixed.valid_to - fixed.period_start == 90 * DAY
    assert len(billing.due_main_grants(fixed, fake.now())) == 1 and len(fixed.grants) == 3


def test_a_payment_link_carries_the_brand_and_the_email(fake: FakeStripe) -> None:
    url = sc.payment_link_url("monthly", "12", "mia@tandem.local")
    assert "client_reference_id=12" in url and "prefilled_email=mia%40tandem.local" in url
    opened = requests.get(url, allow_redirects=False, timeout=TIMEOUT)
    assert opened.status_code == 303
    session_url = fake.base_url + opened.headers["Location"]
    answer = pay(session_url)
    assert answer.status_code == 303
    session_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert answer.headers["Location"] == f"{SITE}/account/subscriptions/payment-processing/{session_id}"
    session = sc.get_checkout_session(session_id)
    assert session["client_reference_id"] == "12" and session["metadata"]["tandem_link"] == "monthly"
    state = state_of(fake, session["customer"])
    assert state.status == "active" and len(billing.grants_to_make(state, [], fake.now())) == 1

    feature = requests.get(
        sc.payment_link_url("6month", "31", "ed@tandem.local"), allow_redirects=False, timeout=10
    )
    paid = pay(fake.base_url + feature.headers["Location"], email="ed@tandem.local")
    bought = sc.get_checkout_session(paid.headers["Location"].rsplit("/", 1)[1])
    only = state_of(fake, bought["customer"])
    assert only.status == "feature_only" and [(f.months, f.brand) for f in only.features] == [(6, "31")]

    with pytest.raises(ValidationError):
        sc.payment_link_url("weekly", "12", "mia@tandem.local")
    with pytest.raises(ValidationError):
        sc.payment_link_url("monthly", "12&x=1", "mia@tandem.local")


def test_an_account_with_two_customers_is_read_as_one(fake: FakeStripe) -> None:
    customer, _ = subscribe(fake)
    opened = requests.get(
        sc.payment_link_url("one_off", "12", "mia@tandem.local"), allow_redirects=False, timeout=10
    )
    paid = pay(fake.base_url + opened.headers["Location"])
    link_customer = sc.get_checkout_session(paid.headers["Location"].rsplit("/", 1)[1])["customer"]
    assert link_customer != customer  # a payment link makes its own customer
    state = state_of(fake, [customer, link_customer])
    assert state.status == "active"  # the subscription outranks the fixed term
    assert len([g for g in state.grants if g.key.startswith("fixed:")]) >= 1


def test_bad_checkout_input_is_refused_with_a_clear_message(fake: FakeStripe) -> None:
    customer = sc.create_customer("acc_1", email="mia@tandem.local")
    with pytest.raises(ValidationError, match="Unknown product price"):
        checkout(customer, "free_money")
    with pytest.raises(ValidationError, match="one at a time"):
        checkout(customer, quantity=2)
    with pytest.raises(ValidationError, match="names its feature"):
        checkout(customer, "tandem_feature_3_months")
    with pytest.raises(ValidationError, match="item id is required"):
        billing_service.payment_return_path("request", brand_id="12")
    with pytest.raises(ValidationError, match="Unknown page type"):
        billing_service.payment_return_path("elsewhere")
    with pytest.raises(ValidationError, match="Invalid return path"):
        checkout(customer, return_path="//evil.example/x")
    with pytest.raises(ValidationError, match="Invalid brand id"):
        checkout(customer, brand_id="12; drop")
    with pytest.raises(ValidationError, match="Invalid email"):
        sc.create_customer("acc_1", email="not-an-email")
    paths = billing_service.payment_return_path
    assert paths("request", brand_id="12", item_id="r_9") == "/requests/received/12/r_9"
    assert paths("pitch", item_id="p_1") == "/pitch/p_1"
    assert paths("requests") == "/requests"  # /requests/payment-processing/{id}


def test_the_api_key_comes_from_the_stripe_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from moto import mock_aws

    from tandem.integrations.aws import client as aws_client
    from tandem.integrations.aws import reset_clients

    monkeypatch.delenv("STRIPE_API_KEY", raising=False)
    monkeypatch.setenv("STRIPE_SECRET_NAME", "tandem/local/stripe")
    with mock_aws():
        reset_clients()
        secrets = aws_client("secretsmanager")
        secrets.create_secret(
            Name="tandem/local/stripe",
            SecretString=json.dumps({"api_key": "sk_test_local", "webhook_secret": "w"}),
        )
        assert sc._api_key() == "sk_test_local"
        secrets.put_secret_value(
            SecretId="tandem/local/stripe", SecretString=json.dumps({"api_key": "set-me"})
        )
        reset_clients()
        with pytest.raises(RuntimeError, match="has no api_key yet"):
            sc._api_key()
    reset_clients()
