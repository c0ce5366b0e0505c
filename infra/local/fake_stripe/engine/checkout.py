"""Checkout Sessions: creation, expiry, and what the hosted page does when a person pays
(a decline, 3-D Secure, completion into a payment or a subscription)."""

from __future__ import annotations

import secrets
from typing import Any

from infra.local.fake_stripe.cards import AUTHENTICATION_FAILED, Card, parse_card
from infra.local.fake_stripe.engine.base import (
    CHECKOUT_LIFETIME,
    DEFAULT_BILLING_MODE,
    EngineBase,
    no_custom_text,
)
from infra.local.fake_stripe.store import public
from infra.local.fake_stripe.util import format_date, invalid, new_id


class CheckoutEngine(EngineBase):
    def session_line_items(self, session: dict[str, Any]) -> dict[str, Any]:
        items = []
        for line in session["_line_items"]:
            price = self.store.get("price", line["price"])
            assert price is not None
            subtotal = price["unit_amount"] * line["quantity"]
            items.append(
                {
                    "id": line["id"],
                    "object": "item",
                    "amount_discount": 0,
                    "amount_subtotal": subtotal,
                    "amount_tax": 0,
                    "amount_total": subtotal,
                    "currency": price["currency"],
                    "description": self.product_name(price["product"]),
                    "price": public(price),
                    "quantity": line["quantity"],
                }
            )
        return self.list_object(items, f"/v1/checkout/sessions/{session['id']}/line_items")

    def link_line_items(self, link: dict[str, Any]) -> dict[str, Any]:
        listed = self.session_line_items({"id": link["id"], "_line_items": link["_line_items"]})
        listed["url"] = f"/v1/payment_links/{link['id']}/line_items"
        return listed

    def create_session(self, fields: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
        """`lines`: validated [{price, quantity}] (api.py checks mode against price types)."""
        now = self.now()
        total = 0
        currency = None
        for line in lines:
            price = self.price(line["price"])
            total += price["unit_amount"] * line["quantity"]
            currency = price["currency"]
        session = {
            "id": new_id("cs_test_", 58),
            "object": "checkout.session",
            "adaptive_pricing": None,
            "after_expiration": None,
            "allow_promotion_codes": None,
            "amount_subtotal": total,
            "amount_total": total,
            "automatic_tax": {"enabled": False, "liability": None, "provider": None, "status": None},
            "billing_address_collection": None,
            "cancel_url": None,
            "client_reference_id": None,
            "client_secret": None,
            "collected_information": None,
            "consent": None,
            "consent_collection": None,
            "created": now,
            "currency": currency,
            "currency_conversion": None,
            "custom_fields": [],
            "custom_text": no_custom_text(),
            "customer": None,
            "customer_creation": None,
            "customer_details": None,
            "customer_email": None,
            "discounts": [],
            "expires_at": now + CHECKOUT_LIFETIME,
            "invoice": None,
            "invoice_creation": None,
            "livemode": False,
            "locale": None,
            "metadata": {},
            "mode": "payment",
            "payment_intent": None,
            "payment_link": None,
            "payment_method_collection": "always",
            "payment_method_configuration_details": None,
            "payment_method_options": {},
            "payment_method_types": ["card"],
            "payment_status": "unpaid",
            "phone_number_collection": {"enabled": False},
            "recovered_from": None,
            "saved_payment_method_options": None,
            "setup_intent": None,
            "shipping_address_collection": None,
            "shipping_cost": None,
            "shipping_options": [],
            "status": "open",
            "submit_type": None,
            "subscription": None,
            "success_url": None,
            "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
            "ui_mode": "hosted_page",  # API 2026: `hosted` became `hosted_page`
            "url": None,
            "wallet_options": None,
            "_line_items": [
                {"id": new_id("li_"), "price": line["price"], "quantity": line["quantity"]} for line in lines
            ],
            "_subscription_data": {},
            "_payment_intent_data": {},
            "_pending_auth": None,
        }
        session.update(fields)
        return self.store.put("checkout.session", session)

    def expire_session(self, session: dict[str, Any]) -> dict[str, Any]:
        if session["status"] != "open":
            raise invalid(
                'Only Checkout Sessions with a status in ["open"] can be expired.',
                None,
                "checkout_session_not_open",
            )
        session["status"] = "expired"
        session["_pending_auth"] = None
        self.emit("checkout.session.expired", "checkout.session", session)
        return session

    def _open_session(self, session: dict[str, Any]) -> None:
        if session["status"] == "open" and session["expires_at"] <= self.now():
            self.expire_session(session)
        if session["status"] != "open":
            raise invalid(f"This Checkout Session is {session['status']}.", None, "checkout_session_not_open")

    def checkout_pay(self, session: dict[str, Any], card: Card, email: str, name: str) -> dict[str, Any]:
        """A person pressed Pay on the hosted page. Returns {'result': 'succeeded' | 'declined' |
        'requires_action', 'message', 'token'}; a decline changes nothing."""
        self._open_session(session)
        if card.on_session == "declined":
            if session["mode"] == "payment":
                self._decline_session_payment(session, card, email, name)
            elif session["mode"] == "subscription":
                self._decline_first_subscription_payment(session, card, email, name)
            return {"result": "declined", "message": card.message}
        if card.on_session == "authenticate":
            token = secrets.token_urlsafe(16)
            session["_pending_auth"] = {"token": token, "card": card.number, "email": email, "name": name}
            return {"result": "requires_action", "token": token}
        self._complete_session(session, card, email, name)
        return {"result": "succeeded"}

    def _decline_session_payment(self, session: dict[str, Any], card: Card, email: str, name: str) -> None:
        """As Stripe does in payment mode: the declined attempt leaves the session open with its
        PaymentIntent in requires_payment_method and the decline in last_payment_error."""
        customer = self.store.get("customer", session["customer"]) if session["customer"] else None
        pm = self._new_payment_method(card, email, name)
        self._charge_session(session, customer, pm, "declined", card)

    def _decline_first_subscription_payment(
        self, session: dict[str, Any], card: Card, email: str, name: str
    ) -> None:
        """Subscription mode: no subscription is made and the session's payment_intent stays
        null (Stripe sets it in payment mode only), but the declined attempt at the first
        payment is a PaymentIntent of the session's customer (listed with
        GET /v1/payment_intents?customer=...) in requires_payment_method with the decline in
        last_payment_error; a customer made by the checkout itself does not exist yet."""
        if not session["customer"]:
            return
        customer = self.store.get("customer", session["customer"])
        if customer is None:
            return
        self._charge(
            amount=session["amount_total"],
            currency=session["currency"],
            customer=customer,
            pm=self._new_payment_method(card, email, name),
            metadata={},
            description="Subscription creation",
            outcome="declined",
            card=card,
        )

    def checkout_authenticate(self, session: dict[str, Any], token: str, approve: bool) -> dict[str, Any]:
        self._open_session(session)
        pending = session["_pending_auth"]
        if not pending or not secrets.compare_digest(pending["token"], token):
            return {
                "result": "declined",
                "message": "This authentication is no longer pending. Please try again.",
            }
        session["_pending_auth"] = None
        if not approve:
            return {"result": "declined", "message": AUTHENTICATION_FAILED}
        card = parse_card(pending["card"])
        assert card is not None
        self._complete_session(session, card, pending["email"], pending["name"])
        return {"result": "succeeded"}

    def _new_payment_method(self, card: Card, email: str, name: str) -> dict[str, Any]:
        now = self.now()
        pm = {
            "id": new_id("pm_"),
            "object": "payment_method",
            "billing_details": {"address": None, "email": email or None, "name": name or None, "phone": None},
            "card": {
                "brand": card.brand,
                "checks": {
                    "address_line1_check": None,
                    "address_postal_code_check": None,
                    "cvc_check": "pass",
                },
                "country": "US",
                "exp_month": 12,
                "exp_year": int(format_date(now).split()[-1]) + 3,
                "funding": "credit",
                "last4": card.last4,
            },
            "created": now,
            "customer": None,
            "livemode": False,
            "metadata": {},
            "type": "card",
            "_number": card.number,
        }
        return self.store.put("payment_method", pm)

    def _attach(self, pm: dict[str, Any], customer: dict[str, Any]) -> None:
        pm["customer"] = customer["id"]
        self.emit("payment_method.attached", "payment_method", pm)

    def _complete_session(self, session: dict[str, Any], card: Card, email: str, name: str) -> None:
        mode = session["mode"]
        pm = self._new_payment_method(card, email, name)
        customer = self.store.get("customer", session["customer"]) if session["customer"] else None
        if customer is None and (
            mode == "subscription"
            or session["customer_creation"] == "always"
            or (session["invoice_creation"] or {}).get("enabled")
        ):
            customer = self.create_customer({"email": email or None, "name": name or None})
        if customer is not None:
            self._attach(pm, customer)
        email = email or (customer or {}).get("email") or ""
        lines = [
            {"price": self.price(line["price"]), "quantity": line["quantity"]}
            for line in session["_line_items"]
        ]
        before = self.snapshot("checkout.session", session)
        if mode == "subscription":
            assert customer is not None
            sub_data = session["_subscription_data"]
            sub, invoice = self._start_subscription(
                customer,
                [line for line in lines if line["price"]["recurring"]],
                [line for line in lines if not line["price"]["recurring"]],
                metadata=dict(sub_data.get("metadata") or {}),
                description=sub_data.get("description"),
                trial_days=sub_data.get("trial_period_days"),
                trial_end=sub_data.get("trial_end"),
                pm=pm,
                billing_mode=sub_data.get("billing_mode") or DEFAULT_BILLING_MODE,
            )
            session["subscription"] = sub["id"]
            session["invoice"] = invoice["id"]
            session["payment_status"] = "paid" if invoice["amount_paid"] > 0 else "no_payment_required"
        else:
            intent = self._charge_session(session, customer, pm, "succeeded")
            session["payment_status"] = "paid"
            creation = session["invoice_creation"] or {}
            if creation.get("enabled"):
                invoice_data = creation.get("invoice_data") or {}
                invoice = self._one_off_invoice(customer, lines, intent, invoice_data)
                session["invoice"] = invoice["id"]
        session["status"] = "complete"
        session["customer"] = customer["id"] if customer else None
        session["customer_details"] = {
            "address": None,
            "business_name": None,
            "email": email or None,
            "individual_name": None,
            "name": name or None,
            "phone": None,
            "tax_exempt": "none",
            "tax_ids": [],
        }
        del before  # checkout.session.completed carries the whole session, no previous_attributes
        self.emit("checkout.session.completed", "checkout.session", session)
