"""Stripe snapshots for the billing rules' unit tests, made by the local fake's engine
(infra/local/fake_stripe) driven in-process: one customer's history built by the test, each
step at the time it names, and read back as `fetch_customer_snapshot` reads it (the same lists,
the same expansions). No HTTP, no threads: a step is a few engine calls on a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from infra.local.fake_stripe.cards import parse_card
from infra.local.fake_stripe.engine import Engine
from infra.local.fake_stripe.store import Store
from tandem.domain import catalogue

DAY = 86400
CARD = parse_card("4242 4242 4242 4242")
EMAIL, NAME = "member@tandem.test", "Mia Member"


def ts(year: int, month: int, day: int, hour: int = 10) -> int:
    return int(datetime(year, month, day, hour, tzinfo=UTC).timestamp())


class World:
    """One Stripe customer's history, built by the test step by step. A step happens at the
    time it is given (the clock may go back: steps need not come in time order); nothing falls
    due on its own (a renewal is `renew`, a retry is `pay`)."""

    def __init__(self) -> None:
        self._now = 0
        self.store = Store(clock=lambda: self._now)
        self.engine = Engine(self.store, lambda: "https://stripe.test")
        self.customer = self.engine.create_customer({"email": EMAIL, "name": NAME})
        self._prices: dict[str, dict[str, Any]] = {}

    def _at(self, at: int) -> None:
        self._now = at

    def _stored(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self.engine.get(kind, obj["id"])

    def _mine(self, kind: str) -> list[dict[str, Any]]:
        """This customer's objects of `kind`, oldest first."""
        return [o for o in self.store.all(kind)[::-1] if o.get("customer") == self.customer["id"]]

    # --- catalogue ---------------------------------------------------------------------------

    def price(self, lookup_key: str, *, amount: int | None = None, current: bool = True) -> dict[str, Any]:
        """The Stripe price for a catalogue lookup key (a changed amount is a new price; a price
        no longer current has lost its lookup key and is inactive)."""
        key = f"{lookup_key}:{amount}"
        if key not in self._prices:
            spec = catalogue.price(lookup_key)
            if self.store.get("product", spec.product) is None:
                product = catalogue.product(spec.product)
                self.engine.create_product({"id": product.id, "name": product.name})
            recurring = {
                "interval": spec.interval,
                "interval_count": 1,
                "meter": None,
                "trial_period_days": None,
                "usage_type": "licensed",
            }
            fields = {
                "active": current,
                "currency": spec.currency,
                "lookup_key": lookup_key if current else None,
                "metadata": catalogue.price_metadata(spec),
                "product": spec.product,
                "recurring": recurring if spec.interval else None,
                "unit_amount": amount if amount is not None else spec.unit_amount,
            }
            self._prices[key] = self.engine.create_price(fields, transfer_lookup_key=True)
        return self.engine.render("price", self._prices[key])

    # --- checkout ----------------------------------------------------------------------------

    def _checkout(
        self, mode: str, price: dict[str, Any], at: int, brand: str, fields: dict[str, Any], quantity: int = 1
    ) -> dict[str, Any]:
        """A member opens a checkout a little before `at` (the time it is paid, if it is)."""
        self._at(at - (60 if mode == "subscription" else 120))
        fields = {"mode": mode, "customer": self.customer["id"], "client_reference_id": brand, **fields}
        return self.engine.create_session(fields, [{"price": price["id"], "quantity": quantity}])

    def _pay(self, session: dict[str, Any], at: int) -> None:
        self._at(at)
        answer = self.engine.checkout_pay(session, CARD, EMAIL, NAME)
        assert answer["result"] == "succeeded", answer

    # --- subscriptions -----------------------------------------------------------------------

    def subscribe(
        self,
        lookup_key: str,
        at: int,
        *,
        trial_days: int | None = None,
        brand: str = "12",
        amount: int | None = None,
    ) -> dict[str, Any]:
        """A paid (or trial) subscription checkout at `at`; returns the subscription as stored
        (it follows later steps)."""
        sub_data: dict[str, Any] = {"metadata": {"brand": brand}, "billing_mode": "classic"}
        if trial_days:
            sub_data["trial_period_days"] = trial_days
        fields = {
            "metadata": {"brand": brand, "kind": "main", "lookup_key": lookup_key},
            "_subscription_data": sub_data,
        }
        session = self._checkout("subscription", self.price(lookup_key, amount=amount), at, brand, fields)
        self._pay(session, at)
        return self.engine.get("subscription", session["subscription"])

    @staticmethod
    def item(sub: dict[str, Any]) -> dict[str, Any]:
        return sub["items"]["data"][0]

    def _latest_invoice(self, sub: dict[str, Any]) -> dict[str, Any]:
        return self.engine.render("invoice", self.engine.get("invoice", sub["latest_invoice"]))

    def renew(self, sub: dict[str, Any], *, paid: bool = True) -> dict[str, Any]:
        """The period ends and the next one is invoiced (a trial's end bills the first period);
        `paid=False`: the card is declined. Returns the invoice."""
        sub = self._stored("subscription", sub)
        if not paid:
            self.engine.fail_next_charge("card_declined")
        self._at(self.engine.sub_period(sub)[1])
        self.engine.end_period(sub)
        return self._latest_invoice(sub)

    def change_price(
        self, sub: dict[str, Any], lookup_key: str, at: int, *, paid: bool = True
    ) -> dict[str, Any]:
        """A switch to another price (monthly <-> yearly: the unused time is credited and the
        new period starts now, invoiced at once). Returns the invoice."""
        sub = self._stored("subscription", sub)
        price = self.price(lookup_key)
        if not paid:
            self.engine.fail_next_charge("card_declined")
        self._at(at)
        self.engine.update_subscription(sub, {"items": [{"id": self.item(sub)["id"], "price": price["id"]}]})
        return self._latest_invoice(sub)

    def cancel_at_period_end(self, sub: dict[str, Any], at: int) -> None:
        self._at(at)
        self.engine.update_subscription(self._stored("subscription", sub), {"cancel_at_period_end": True})

    def end(self, sub: dict[str, Any], at: int) -> None:
        self._at(at)
        self.engine.cancel_subscription(
            self._stored("subscription", sub), reason="cancellation_requested", at=at
        )

    # --- one-off purchases, invoices paid later, refunds -----------------------------------------

    def buy(
        self,
        lookup_key: str,
        at: int,
        *,
        quantity: int = 1,
        brand: str = "12",
        metadata: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """A one-off checkout paid at `at`; returns the session."""
        fields = {"metadata": {"brand": brand, "lookup_key": lookup_key, **(metadata or {})}}
        session = self._checkout("payment", self.price(lookup_key), at, brand, fields, quantity)
        self._pay(session, at)
        return self.engine.render("checkout.session", session)

    def open_session(self, lookup_key: str, at: int) -> dict[str, Any]:
        """A checkout started and not paid (the card was declined, or the tab closed)."""
        fields = {"metadata": {"brand": "12", "lookup_key": lookup_key}}
        return self.engine.render(
            "checkout.session", self._checkout("payment", self.price(lookup_key), at, "12", fields)
        )

    def pay(self, invoice: dict[str, Any], at: int) -> None:
        """An open invoice paid later by the member on the hosted invoice page."""
        self._at(at)
        answer = self.engine.invoice_pay_with_card(self._stored("invoice", invoice), CARD, EMAIL, NAME)
        assert answer["result"] == "succeeded", answer

    def refund(self, intent: str, at: int, amount: int | None = None) -> dict[str, Any]:
        self._at(at)
        charge = self.engine.intent_charge(self.engine.get("payment_intent", intent))
        return self.engine.render("refund", self.engine.create_refund(charge, amount))

    def intent_of(self, invoice: dict[str, Any]) -> str:
        """The PaymentIntent that paid `invoice`."""
        payments = [p for p in self.store.all("invoice_payment") if p["invoice"] == invoice["id"]]
        return payments[0]["payment"]["payment_intent"]

    # --- reading it back ---------------------------------------------------------------------

    @property
    def invoices(self) -> list[dict[str, Any]]:
        """The customer's invoices, oldest first."""
        return [self.engine.render("invoice", i) for i in self._mine("invoice")]

    @property
    def charges(self) -> list[dict[str, Any]]:
        """The charges that took money, oldest first."""
        return [self.engine.render("charge", c) for c in self._mine("charge") if c["status"] == "succeeded"]

    def snapshot(self) -> dict[str, Any]:
        """What `fetch_customer_snapshot` reads: subscriptions (status=all), invoices with their
        payments, checkout sessions with their line items, charges with their refunds, and the
        prices invoice lines name that no item or session carries."""
        render = self.engine.render
        snapshot: dict[str, Any] = {
            "subscriptions": [render("subscription", s) for s in self._mine("subscription")],
            "invoices": [render("invoice", i, ["payments"]) for i in self._mine("invoice")],
            "checkout_sessions": [
                render("checkout.session", s, ["line_items"]) for s in self._mine("checkout.session")
            ],
            "charges": [render("charge", c, ["refunds"]) for c in self._mine("charge")],
            "refunds": [],
        }
        known = {item["price"]["id"] for s in snapshot["subscriptions"] for item in s["items"]["data"]} | {
            line["price"]["id"] for s in snapshot["checkout_sessions"] for line in s["line_items"]["data"]
        }
        named = {
            line["pricing"]["price_details"]["price"]
            for invoice in snapshot["invoices"]
            for line in invoice["lines"]["data"]
        }
        snapshot["prices"] = [render("price", self.engine.price(p)) for p in sorted(named - known)]
        return snapshot
