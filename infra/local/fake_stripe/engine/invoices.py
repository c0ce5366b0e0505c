"""Invoices: drafting, lines, finalising against the customer's balance, collecting (on and off
session, with the retry schedule), the hosted invoice page and POST /pay."""

from __future__ import annotations

import secrets
from typing import Any

from infra.local.fake_stripe.cards import AUTHENTICATION_FAILED, FORCED_OUTCOMES, Card, parse_card
from infra.local.fake_stripe.engine.base import DAY, RETRY_SCHEDULE_DAYS, EngineBase
from infra.local.fake_stripe.store import public
from infra.local.fake_stripe.util import StripeError, format_money, invalid, new_id


class InvoicesEngine(EngineBase):
    def _new_invoice(
        self,
        customer: dict[str, Any] | None,
        sub: dict[str, Any] | None,
        billing_reason: str,
        period: tuple[int, int],
        currency: str,
    ) -> dict[str, Any]:
        now = self.now()
        invoice = {
            "id": new_id("in_"),
            "object": "invoice",
            "account_country": "GB",
            "account_name": self.account_name,
            "account_tax_ids": None,
            "amount_due": 0,
            "amount_overpaid": 0,
            "amount_paid": 0,
            "amount_remaining": 0,
            "amount_shipping": 0,
            "application": None,
            "attempt_count": 0,
            "attempted": False,
            "auto_advance": True,
            "automatic_tax": {"disabled_reason": None, "enabled": False, "liability": None, "status": None},
            "automatically_finalizes_at": None,
            "billing_reason": billing_reason,
            "collection_method": "charge_automatically",
            "confirmation_secret": None,
            "created": now,
            "currency": currency,
            "custom_fields": None,
            "customer": customer["id"] if customer else None,
            "customer_address": None,
            "customer_email": customer["email"] if customer else None,
            "customer_name": customer["name"] if customer else None,
            "customer_phone": None,
            "customer_shipping": None,
            "customer_tax_exempt": "none",
            "customer_tax_ids": [],
            "default_payment_method": None,
            "default_source": None,
            "default_tax_rates": [],
            "description": None,
            "discounts": [],
            "due_date": None,
            "effective_at": None,
            "ending_balance": None,
            "footer": None,
            "from_invoice": None,
            "hosted_invoice_url": None,
            "invoice_pdf": None,
            "issuer": {"type": "self"},
            "last_finalization_error": None,
            "latest_revision": None,
            "lines": self.list_object([], ""),
            "livemode": False,
            "metadata": {},
            "next_payment_attempt": None,
            "number": None,
            "on_behalf_of": None,
            "parent": None,
            "payment_settings": {
                "default_mandate": None,
                "payment_method_options": None,
                "payment_method_types": None,
            },
            "period_end": period[1],
            "period_start": period[0],
            "post_payment_credit_notes_amount": 0,
            "pre_payment_credit_notes_amount": 0,
            "receipt_number": None,
            "rendering": None,
            "shipping_cost": None,
            "shipping_details": None,
            "starting_balance": customer["balance"] if customer else 0,
            "statement_descriptor": None,
            "status": "draft",
            "status_transitions": {
                "finalized_at": None,
                "marked_uncollectible_at": None,
                "paid_at": None,
                "voided_at": None,
            },
            "subtotal": 0,
            "subtotal_excluding_tax": 0,
            "test_clock": None,
            "total": 0,
            "total_discount_amounts": [],
            "total_excluding_tax": 0,
            "total_pretax_credit_amounts": [],
            "total_taxes": [],
            "webhooks_delivered_at": None,
            "_payment_intent": None,
            "_pending_auth": None,
        }
        invoice["lines"]["url"] = f"/v1/invoices/{invoice['id']}/lines"
        if sub is not None:
            invoice["parent"] = {
                "quote_details": None,
                "subscription_details": {"metadata": dict(sub["metadata"]), "subscription": sub["id"]},
                "type": "subscription_details",
            }
        return invoice

    def _line(
        self,
        invoice: dict[str, Any],
        *,
        price: dict[str, Any],
        quantity: int,
        amount: int,
        period: tuple[int, int],
        description: str,
        sub: dict[str, Any] | None = None,
        sub_item: str | None = None,
        proration: bool = False,
        invoice_item: str | None = None,
    ) -> dict[str, Any]:
        if sub is not None and sub_item is not None and not invoice_item:
            parent: dict[str, Any] = {
                "invoice_item_details": None,
                "subscription_item_details": {
                    "invoice_item": None,
                    "proration": proration,
                    "proration_details": {"credited_items": None},
                    "subscription": sub["id"],
                    "subscription_item": sub_item,
                },
                "type": "subscription_item_details",
            }
        else:
            parent = {
                "invoice_item_details": {
                    "invoice_item": invoice_item or new_id("ii_"),
                    "proration": proration,
                    "proration_details": {"credited_items": None},
                    "subscription": sub["id"] if sub else None,
                },
                "subscription_item_details": None,
                "type": "invoice_item_details",
            }
        return {
            "id": new_id("il_"),
            "object": "line_item",
            "amount": amount,
            "currency": price["currency"],
            "description": description,
            "discount_amounts": [],
            "discountable": not proration,
            "discounts": [],
            "invoice": invoice["id"],
            "livemode": False,
            "metadata": dict(sub["metadata"]) if sub and sub_item and not invoice_item else {},
            "parent": parent,
            "period": {"end": period[1], "start": period[0]},
            "pretax_credit_amounts": [],
            "pricing": {
                "price_details": {"price": price["id"], "product": price["product"]},
                "type": "price_details",
                "unit_amount_decimal": price["unit_amount_decimal"],
            },
            "quantity": quantity,
            "subscription": sub["id"] if sub else None,
            "subtotal": amount,
            "taxes": [],
        }

    def _describe(self, price: dict[str, Any], quantity: int) -> str:
        money = format_money(price["unit_amount"], price["currency"])
        recurring = price["recurring"]
        name = self.product_name(price["product"])
        if not recurring:
            return f"{quantity} × {name}" if quantity != 1 else name
        count = recurring["interval_count"]
        every = recurring["interval"] if count == 1 else f"every {count} {recurring['interval']}s"
        return f"{quantity} × {name} (at {money} / {every})"

    def _finalize(self, invoice: dict[str, Any], customer: dict[str, Any] | None) -> None:
        """Totals, customer balance (credit first), number; draft -> open. Emits created and finalized."""
        total = sum(line["amount"] for line in invoice["lines"]["data"])
        invoice["subtotal"] = invoice["subtotal_excluding_tax"] = total
        invoice["total"] = invoice["total_excluding_tax"] = total
        invoice["lines"]["total_count"] = len(invoice["lines"]["data"])
        balance = customer["balance"] if customer else 0
        invoice["starting_balance"] = balance
        amount_due = total + balance  # a negative balance is a credit
        if customer is not None:
            cbefore = self.snapshot("customer", customer)
            customer["balance"] = min(0, amount_due)
            if customer["currency"] is None:
                customer["currency"] = invoice["currency"]
            invoice["number"] = f"{customer['invoice_prefix']}-{customer['next_invoice_sequence']:04d}"
            customer["next_invoice_sequence"] += 1
            self.emit_updated("customer.updated", "customer", customer, cbefore, only=("balance", "currency"))
        else:
            invoice["number"] = f"LOCAL-{self.store.next_seq():04d}"
        amount_due = max(0, amount_due)
        invoice["ending_balance"] = customer["balance"] if customer else 0
        invoice["amount_due"] = invoice["amount_remaining"] = amount_due
        self.store.put("invoice", invoice)
        self.emit("invoice.created", "invoice", invoice)
        invoice["status"] = "open"
        invoice["effective_at"] = invoice["status_transitions"]["finalized_at"] = self.now()
        self.emit("invoice.finalized", "invoice", invoice)

    def _add_one_time_lines(
        self, invoice: dict[str, Any], lines: list[dict[str, Any]], at: int, sub: dict[str, Any] | None = None
    ) -> None:
        for line in lines:
            price, quantity = line["price"], line["quantity"]
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=quantity,
                    amount=price["unit_amount"] * quantity,
                    period=(at, at),
                    description=self._describe(price, quantity),
                    sub=sub,
                )
            )

    def _paid_at_checkout(self, invoice: dict[str, Any], intent: dict[str, Any]) -> None:
        """The invoice's first attempt was the payment `intent` a checkout took."""
        invoice["_payment_intent"] = intent["id"]
        self._payment_paid(self._invoice_payment(invoice, intent), invoice)
        invoice["attempted"] = True
        invoice["attempt_count"] = 1

    def _payment_paid(self, payment: dict[str, Any], invoice: dict[str, Any]) -> None:
        payment["status"] = "paid"
        payment["amount_paid"] = invoice["amount_due"]
        payment["status_transitions"]["paid_at"] = self.now()

    def _mark_paid(self, invoice: dict[str, Any]) -> None:
        now = self.now()
        invoice["status"] = "paid"
        invoice["amount_paid"] = invoice["amount_due"]
        invoice["amount_remaining"] = 0
        invoice["next_payment_attempt"] = None
        invoice["status_transitions"]["paid_at"] = now
        invoice["webhooks_delivered_at"] = invoice["webhooks_delivered_at"] or now
        self.emit("invoice.paid", "invoice", invoice)
        self.emit("invoice.payment_succeeded", "invoice", invoice)

    def _invoice_payment(self, invoice: dict[str, Any], intent: dict[str, Any]) -> dict[str, Any]:
        for payment in self.store.all("invoice_payment"):
            if payment["invoice"] == invoice["id"] and payment["payment"]["payment_intent"] == intent["id"]:
                return payment
        payment = {
            "id": new_id("inpay_"),
            "object": "invoice_payment",
            "amount_paid": None,
            "amount_requested": invoice["amount_due"],
            "created": self.now(),
            "currency": invoice["currency"],
            "invoice": invoice["id"],
            "is_default": True,
            "livemode": False,
            "payment": {"payment_intent": intent["id"], "type": "payment_intent"},
            "status": "open",
            "status_transitions": {"canceled_at": None, "paid_at": None},
        }
        return self.store.put("invoice_payment", payment)

    def collect(
        self,
        invoice: dict[str, Any],
        pm: dict[str, Any] | None,
        *,
        decided: tuple[str, Card | None] | None = None,
        on_session: bool = False,
    ) -> str:
        """Try to pay an open invoice with `pm`. Off session (renewal, update, retry) the outcome
        comes from fail_next_charge or the saved card; `decided` gives it instead (a person
        paying on the hosted invoice page, or an outcome already checked). Returns it."""
        customer = self.store.get("customer", invoice["customer"]) if invoice["customer"] else None
        if invoice["amount_due"] == 0:
            self._mark_paid(invoice)
            return "succeeded"
        outcome, card = decided if decided is not None else self._off_session_outcome(pm)
        if pm is None:
            pm = self._new_payment_method(FORCED_OUTCOMES["card_declined"], "", "")
        intent = (
            self.store.get("payment_intent", invoice["_payment_intent"])
            if invoice["_payment_intent"]
            else None
        )
        intent, charge = self._charge(
            amount=invoice["amount_due"],
            currency=invoice["currency"],
            customer=customer,
            pm=pm,
            metadata={},
            description=_invoice_description(invoice["billing_reason"]),
            outcome=outcome,
            card=card,
            intent=intent,
        )
        invoice["_payment_intent"] = intent["id"]
        payment = self._invoice_payment(invoice, intent)
        invoice["attempted"] = True
        invoice["attempt_count"] += 1
        if outcome == "succeeded":
            self._payment_paid(payment, invoice)
            self._mark_paid(invoice)
            return outcome
        if not on_session and outcome == "declined":
            attempt = invoice["attempt_count"]
            if attempt <= len(RETRY_SCHEDULE_DAYS):
                invoice["next_payment_attempt"] = self.now() + RETRY_SCHEDULE_DAYS[attempt - 1] * DAY
            else:
                invoice["next_payment_attempt"] = None
        if outcome == "authenticate":
            invoice["next_payment_attempt"] = None
            self.emit("invoice.payment_action_required", "invoice", invoice)
        else:
            self.emit("invoice.payment_failed", "invoice", invoice)
        return outcome

    def _one_off_invoice(
        self,
        customer: dict[str, Any] | None,
        lines: list[dict[str, Any]],
        intent: dict[str, Any],
        invoice_data: dict[str, Any],
    ) -> dict[str, Any]:
        now = self.now()
        invoice = self._new_invoice(customer, None, "manual", (now, now), intent["currency"])
        invoice["metadata"] = dict(invoice_data.get("metadata") or {})
        invoice["description"] = invoice_data.get("description")
        self._add_one_time_lines(invoice, lines, now)
        if customer is not None:  # the payment was already taken at checkout, not from the balance
            saved = customer["balance"]
            customer["balance"] = 0
        self._finalize(invoice, customer)
        if customer is not None:
            customer["balance"] = saved
            invoice["starting_balance"] = invoice["ending_balance"] = saved
        self._paid_at_checkout(invoice, intent)
        self._mark_paid(invoice)
        return invoice

    def invoice_pay_with_card(
        self, invoice: dict[str, Any], card: Card, email: str, name: str
    ) -> dict[str, Any]:
        """The hosted invoice page: a person pays an open invoice."""
        if invoice["status"] != "open":
            raise invalid(f"This invoice is {invoice['status']}; only an open invoice can be paid.")
        if card.on_session == "declined":
            return {"result": "declined", "message": card.message}
        if card.on_session == "authenticate":
            token = secrets.token_urlsafe(16)
            invoice["_pending_auth"] = {"token": token, "card": card.number, "email": email, "name": name}
            return {"result": "requires_action", "token": token}
        self._pay_open_invoice(invoice, self._new_payment_method(card, email, name), ("succeeded", card))
        return {"result": "succeeded"}

    def invoice_authenticate(self, invoice: dict[str, Any], token: str, approve: bool) -> dict[str, Any]:
        pending = invoice["_pending_auth"]
        if invoice["status"] != "open" or not pending or not secrets.compare_digest(pending["token"], token):
            return {
                "result": "declined",
                "message": "This authentication is no longer pending. Please try again.",
            }
        invoice["_pending_auth"] = None
        if not approve:
            return {"result": "declined", "message": AUTHENTICATION_FAILED}
        card = parse_card(pending["card"])
        assert card is not None
        pm = self._new_payment_method(card, pending["email"], pending["name"])
        self._pay_open_invoice(invoice, pm, ("succeeded", card))
        return {"result": "succeeded"}

    def pay_invoice(self, invoice: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/invoices/{id}/pay: charge the saved payment method now."""
        if invoice["status"] == "paid":
            raise invalid("Invoice is already paid", None, "invoice_already_paid")
        if invoice["status"] != "open":
            raise invalid(f"You can only pay an open invoice. This invoice is {invoice['status']}.")
        sub = self._invoice_subscription(invoice)
        pm = self._default_pm(sub, invoice["customer"])
        outcome = self._pay_open_invoice(invoice, pm, None)
        if outcome == "declined":
            intent = self.get("payment_intent", invoice["_payment_intent"])
            error = intent["last_payment_error"]
            raise StripeError(
                402,
                error["message"],
                type_="card_error",
                code=error["code"],
                decline_code=error["decline_code"],
                extra={"charge": error["charge"], "payment_intent": public(intent)},
            )
        if outcome == "authenticate":
            intent = self.get("payment_intent", invoice["_payment_intent"])
            raise StripeError(
                402,
                "This payment requires additional user action before it can be completed successfully.",
                type_="card_error",
                code="invoice_payment_intent_requires_action",
                extra={"payment_intent": public(intent)},
            )
        return invoice

    def _pay_open_invoice(
        self, invoice: dict[str, Any], pm: dict[str, Any] | None, decided: tuple[str, Card | None] | None
    ) -> str:
        outcome = self.collect(invoice, pm, decided=decided, on_session=decided is not None)
        sub = self._invoice_subscription(invoice)
        if outcome == "succeeded" and sub is not None:
            if (
                decided is not None and pm is not None
            ):  # a person paid with a new card: it becomes the default
                sub["default_payment_method"] = pm["id"]
            self._settle_status(sub)
        return outcome

    def _invoice_subscription(self, invoice: dict[str, Any]) -> dict[str, Any] | None:
        parent = invoice.get("parent") or {}
        details = parent.get("subscription_details") or {}
        return self.store.get("subscription", details.get("subscription", "")) if details else None

    def _default_pm(self, sub: dict[str, Any] | None, customer_id: str | None) -> dict[str, Any] | None:
        if sub and sub.get("default_payment_method"):
            return self.store.get("payment_method", sub["default_payment_method"])
        customer = self.store.get("customer", customer_id) if customer_id else None
        if customer and customer["invoice_settings"]["default_payment_method"]:
            return self.store.get("payment_method", customer["invoice_settings"]["default_payment_method"])
        return None


def _invoice_description(billing_reason: str) -> str | None:
    return {
        "subscription_create": "Subscription creation",
        "subscription_cycle": "Subscription update",
        "subscription_update": "Subscription update",
    }.get(billing_reason)
