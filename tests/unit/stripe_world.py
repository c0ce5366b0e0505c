"""Stripe-shaped snapshots for the billing rules' unit tests: a small customer history builder
that writes objects as the API (2026-10-28.endive) returns them, with only the fields the rules
read plus a few they must ignore. The functional tests check the same shapes against the fake."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime
from typing import Any

from tandem.domain import catalogue
from tandem.domain.billing import add_months

DAY = 86400


def ts(year: int, month: int, day: int, hour: int = 10) -> int:
    return int(datetime(year, month, day, hour, tzinfo=UTC).timestamp())


class World:
    """One Stripe customer's history, built in time order by the test."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.subscriptions: list[dict[str, Any]] = []
        self.invoices: list[dict[str, Any]] = []
        self.sessions: list[dict[str, Any]] = []
        self.charges: list[dict[str, Any]] = []
        self.refunds: list[dict[str, Any]] = []
        self.prices: dict[str, dict[str, Any]] = {}

    def _id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids):04d}"

    # --- catalogue ---------------------------------------------------------------------------

    def price(self, lookup_key: str, *, amount: int | None = None, current: bool = True) -> dict[str, Any]:
        """The Stripe price for a catalogue lookup key (a changed amount is a new price)."""
        spec = catalogue.price(lookup_key)
        key = f"{lookup_key}:{amount}"
        if key not in self.prices:
            self.prices[key] = {
                "id": self._id("price"),
                "object": "price",
                "active": current,
                "currency": "gbp",
                "lookup_key": lookup_key if current else None,
                "metadata": catalogue.price_metadata(spec),
                "nickname": None,
                "product": spec.product,
                "recurring": (
                    {"interval": spec.interval, "interval_count": 1, "usage_type": "licensed"}
                    if spec.interval
                    else None
                ),
                "type": "recurring" if spec.interval else "one_time",
                "unit_amount": amount if amount is not None else spec.unit_amount,
            }
        return self.prices[key]

    # --- payments ----------------------------------------------------------------------------

    def _charge(self, amount: int, at: int) -> str:
        intent = self._id("pi")
        self.charges.append(
            {
                "id": self._id("ch"),
                "object": "charge",
                "amount": amount,
                "amount_refunded": 0,
                "created": at,
                "currency": "gbp",
                "paid": True,
                "payment_intent": intent,
                "refunded": False,
                "status": "succeeded",
            }
        )
        return intent

    def _line(
        self,
        price: dict[str, Any],
        start: int,
        end: int,
        amount: int,
        *,
        sub: str | None = None,
        item: str | None = None,
        proration: bool = False,
        quantity: int = 1,
    ) -> dict[str, Any]:
        if item and not proration:
            parent = {
                "invoice_item_details": None,
                "subscription_item_details": {
                    "invoice_item": None,
                    "proration": False,
                    "subscription": sub,
                    "subscription_item": item,
                },
                "type": "subscription_item_details",
            }
        else:
            parent = {
                "invoice_item_details": {
                    "invoice_item": self._id("ii"),
                    "proration": proration,
                    "subscription": sub,
                },
                "subscription_item_details": None,
                "type": "invoice_item_details",
            }
        return {
            "id": self._id("il"),
            "object": "line_item",
            "amount": amount,
            "currency": "gbp",
            "parent": parent,
            "period": {"start": start, "end": end},
            "pricing": {
                "price_details": {"price": price["id"], "product": price["product"]},
                "type": "price_details",
            },
            "quantity": quantity,
        }

    def _invoice(
        self,
        sub: dict[str, Any] | None,
        reason: str,
        lines: list[dict[str, Any]],
        at: int,
        *,
        paid: bool = True,
    ) -> dict[str, Any]:
        total = sum(line["amount"] for line in lines)
        invoice_id = self._id("in")
        intent = self._charge(total, at) if paid and total > 0 else None
        invoice = {
            "id": invoice_id,
            "object": "invoice",
            "amount_due": max(0, total),
            "amount_paid": max(0, total) if paid else 0,
            "billing_reason": reason,
            "created": at,
            "currency": "gbp",
            "customer": "cus_1",
            "hosted_invoice_url": f"https://invoice.stripe.test/{invoice_id}",
            "lines": {"object": "list", "data": lines, "has_more": False},
            "parent": (
                {
                    "subscription_details": {"metadata": {}, "subscription": sub["id"]},
                    "type": "subscription_details",
                }
                if sub
                else None
            ),
            "payments": {
                "object": "list",
                "data": (
                    [
                        {
                            "id": self._id("inpay"),
                            "object": "invoice_payment",
                            "payment": {"payment_intent": intent, "type": "payment_intent"},
                            "status": "paid",
                        }
                    ]
                    if intent
                    else []
                ),
            },
            "status": "paid" if paid else "open",
            "status_transitions": {"paid_at": at if paid else None, "finalized_at": at},
        }
        self.invoices.append(invoice)
        return invoice

    def pay(self, invoice: dict[str, Any], at: int) -> None:
        """An open invoice paid later (a retry, or the member on the hosted invoice page)."""
        total = invoice["amount_due"]
        intent = self._charge(total, at) if total > 0 else None
        invoice["status"] = "paid"
        invoice["amount_paid"] = total
        invoice["status_transitions"]["paid_at"] = at
        if intent:
            invoice["payments"]["data"].append(
                {
                    "id": self._id("inpay"),
                    "object": "invoice_payment",
                    "payment": {"payment_intent": intent, "type": "payment_intent"},
                    "status": "paid",
                }
            )
        for sub in self.subscriptions:
            if sub["id"] == invoice["parent"]["subscription_details"]["subscription"]:
                sub["status"] = "active"

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
        price = self.price(lookup_key, amount=amount)
        sub_id = self._id("sub")
        item_id = self._id("si")
        end = at + trial_days * DAY if trial_days else self._next(at, price)
        sub = {
            "id": sub_id,
            "object": "subscription",
            "cancel_at": None,
            "cancel_at_period_end": False,
            "canceled_at": None,
            "created": at,
            "customer": "cus_1",
            "ended_at": None,
            "items": {
                "object": "list",
                "data": [
                    {
                        "id": item_id,
                        "object": "subscription_item",
                        "current_period_end": end,
                        "current_period_start": at,
                        "price": copy.deepcopy(price),
                        "quantity": 1,
                    }
                ],
            },
            "metadata": {"brand": brand},
            "status": "trialing" if trial_days else "active",
            "trial_end": end if trial_days else None,
        }
        self.subscriptions.append(sub)
        amount_now = 0 if trial_days else price["unit_amount"]
        invoice = self._invoice(
            sub, "subscription_create", [self._line(price, at, end, amount_now, sub=sub_id, item=item_id)], at
        )
        self.sessions.append(
            {
                "id": self._id("cs_test"),
                "object": "checkout.session",
                "amount_total": amount_now,
                "client_reference_id": brand,
                "created": at - 60,
                "currency": "gbp",
                "customer": "cus_1",
                "invoice": invoice["id"],
                "metadata": {"brand": brand, "kind": "main", "lookup_key": lookup_key},
                "mode": "subscription",
                "payment_intent": None,
                "payment_status": "paid" if amount_now else "no_payment_required",
                "status": "complete",
                "subscription": sub_id,
            }
        )
        return sub

    @staticmethod
    def _next(start: int, price: dict[str, Any]) -> int:
        return add_months(start, 12 if price["recurring"]["interval"] == "year" else 1)

    @staticmethod
    def item(sub: dict[str, Any]) -> dict[str, Any]:
        return sub["items"]["data"][0]

    def renew(self, sub: dict[str, Any], *, paid: bool = True) -> dict[str, Any]:
        """The period ends and the next one is invoiced (a trial's end bills the first period)."""
        item = self.item(sub)
        start = item["current_period_end"]
        end = self._next(start, item["price"])
        item["current_period_start"], item["current_period_end"] = start, end
        if sub["status"] == "trialing":
            sub["trial_end"] = start
        sub["status"] = "active" if paid else "past_due"
        line = self._line(
            item["price"], start, end, item["price"]["unit_amount"], sub=sub["id"], item=item["id"]
        )
        return self._invoice(sub, "subscription_cycle", [line], start, paid=paid)

    def change_price(
        self, sub: dict[str, Any], lookup_key: str, at: int, *, paid: bool = True
    ) -> dict[str, Any]:
        """An interval change (monthly <-> yearly): the unused time is credited and the new
        period starts now, invoiced at once (billing_reason subscription_update)."""
        item = self.item(sub)
        old_price = item["price"]
        start, end = item["current_period_start"], item["current_period_end"]
        unused = -round(old_price["unit_amount"] * (end - at) / (end - start))
        new_price = self.price(lookup_key)
        new_end = self._next(at, new_price)
        lines = [
            self._line(old_price, at, end, unused, sub=sub["id"], item=item["id"], proration=True),
            self._line(new_price, at, new_end, new_price["unit_amount"], sub=sub["id"], item=item["id"]),
        ]
        item["price"] = copy.deepcopy(new_price)
        item["current_period_start"], item["current_period_end"] = at, new_end
        if not paid:
            sub["status"] = "past_due"
        return self._invoice(sub, "subscription_update", lines, at, paid=paid)

    def cancel_at_period_end(self, sub: dict[str, Any], at: int) -> None:
        sub["cancel_at_period_end"] = True
        sub["cancel_at"] = self.item(sub)["current_period_end"]
        sub["canceled_at"] = at

    def end(self, sub: dict[str, Any], at: int) -> None:
        sub["status"] = "canceled"
        sub["ended_at"] = at
        sub["canceled_at"] = sub["canceled_at"] or at

    # --- one-off purchases -------------------------------------------------------------------

    def buy(
        self,
        lookup_key: str,
        at: int,
        *,
        quantity: int = 1,
        brand: str = "12",
        metadata: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        price = self.price(lookup_key)
        total = price["unit_amount"] * quantity
        intent = self._charge(total, at)
        session = {
            "id": self._id("cs_test"),
            "object": "checkout.session",
            "amount_total": total,
            "client_reference_id": brand,
            "created": at - 120,
            "currency": "gbp",
            "customer": "cus_1",
            "invoice": None,
            "line_items": {
                "object": "list",
                "data": [
                    {
                        "id": self._id("li"),
                        "object": "item",
                        "amount_total": total,
                        "price": copy.deepcopy(price),
                        "quantity": quantity,
                    }
                ],
            },
            "metadata": {"brand": brand, "lookup_key": lookup_key, **(metadata or {})},
            "mode": "payment",
            "payment_intent": intent,
            "payment_status": "paid",
            "status": "complete",
            "subscription": None,
        }
        self.sessions.append(session)
        return session

    def open_session(self, lookup_key: str, at: int) -> dict[str, Any]:
        """A checkout started and not paid (the card was declined, or the tab closed)."""
        session = self.buy(lookup_key, at)
        self.charges.pop()
        session.update({"status": "open", "payment_status": "unpaid", "payment_intent": None})
        return session

    def refund(self, intent: str, at: int, amount: int | None = None) -> dict[str, Any]:
        charge = next(c for c in self.charges if c["payment_intent"] == intent)
        amount = charge["amount"] - charge["amount_refunded"] if amount is None else amount
        refund = {
            "id": self._id("re"),
            "object": "refund",
            "amount": amount,
            "charge": charge["id"],
            "created": at,
            "payment_intent": intent,
            "status": "succeeded",
        }
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] >= charge["amount"]
        self.refunds.append(refund)
        return refund

    @staticmethod
    def intent_of(invoice: dict[str, Any]) -> str:
        return invoice["payments"]["data"][-1]["payment"]["payment_intent"]

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(
            {
                "subscriptions": self.subscriptions,
                "invoices": self.invoices,
                "checkout_sessions": self.sessions,
                "charges": self.charges,
                "refunds": self.refunds,
                "prices": list(self.prices.values()),
            }
        )
