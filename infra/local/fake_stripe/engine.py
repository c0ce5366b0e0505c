"""What the fake Stripe does: the objects, their life cycles and the events they emit.

The HTTP layers (api.py for /v1, pages.py for the hosted pages, controls.py for /_test) parse
and validate input, then call an Engine method while holding the store's lock. Every state
change emits an Event whose `data.object` is a snapshot of the object at that moment; the
webhook dispatcher delivers events after the change is complete.

Shapes follow the API version the pinned stripe-python sends (`API_VERSION`): billing periods
live on subscription items, an invoice names its subscription under
`parent.subscription_details` and its payments in the includable `payments` list.
"""

from __future__ import annotations

import contextlib
import copy
import re
import secrets
import string
import threading
from collections.abc import Callable, Iterator
from typing import Any

from stripe._api_version import _ApiVersion

from infra.local.fake_stripe.cards import AUTHENTICATION_FAILED, FORCED_OUTCOMES, Card, parse_card
from infra.local.fake_stripe.store import Store, public
from infra.local.fake_stripe.util import (
    StripeError,
    add_interval,
    format_date,
    format_money,
    invalid,
    missing,
    new_id,
    period_end,
)

API_VERSION = _ApiVersion.CURRENT
DAY = 86400
CHECKOUT_LIFETIME = DAY
TRIAL_WILL_END_NOTICE = 3 * DAY
RETRY_SCHEDULE_DAYS = (3, 5, 7)  # smart-retry stand-in: after the 4th failed attempt the subscription ends
MAX_EXPAND_DEPTH = 4

KIND_NAMES = {  # for "No such ...: 'id'"
    "product": "product",
    "price": "price",
    "customer": "customer",
    "checkout.session": "checkout.session",
    "subscription": "subscription",
    "invoice": "invoice",
    "invoiceitem": "invoiceitem",
    "invoice_payment": "invoice_payment",
    "payment_intent": "payment_intent",
    "charge": "charge",
    "refund": "refund",
    "payment_method": "PaymentMethod",
    "payment_link": "payment_link",
    "billing_portal.session": "billing_portal.session",
    "billing_portal.configuration": "configuration",
    "event": "event",
    "webhook_endpoint": "webhook endpoint",
}
LIVE_SUBSCRIPTION = ("active", "trialing", "past_due")
DEFAULT_BILLING_MODE = "flexible"  # what Stripe gives a new subscription that does not say


def _url_token() -> str:
    alphabet = string.ascii_letters + string.digits
    return "test_" + "".join(secrets.choice(alphabet) for _ in range(24))


class Engine:
    def __init__(
        self, store: Store, base_url: Callable[[], str], account_name: str = "Tandem (local)"
    ) -> None:
        self.store = store
        self.base_url = base_url
        self.account_name = account_name
        self.on_event: Callable[[dict[str, Any]], None] = lambda event: None
        self._ctx = threading.local()

    # --- context and clock -------------------------------------------------------------------

    @contextlib.contextmanager
    def request(self, request_id: str | None, idempotency_key: str | None) -> Iterator[None]:
        """Events emitted inside name the API request that caused them (None for pages and clock)."""
        previous = getattr(self._ctx, "request", None)
        self._ctx.request = {"id": request_id, "idempotency_key": idempotency_key}
        try:
            yield
        finally:
            self._ctx.request = previous

    def now(self) -> int:
        return self.store.now()

    def _set_clock(self, timestamp: int) -> None:
        if timestamp > self.now():
            self.store.clock_offset += timestamp - self.now()

    # --- lookups ---------------------------------------------------------------------------

    def get(self, kind: str, object_id: Any, param: str = "id") -> dict[str, Any]:
        obj = self.store.get(kind, object_id) if isinstance(object_id, str) else None
        if obj is None:
            raise missing(KIND_NAMES.get(kind, kind), str(object_id), param)
        return obj

    def price(self, price_id: Any, param: str = "price") -> dict[str, Any]:
        return self.get("price", price_id, param)

    def product_name(self, product_id: str) -> str:
        product = self.store.get("product", product_id)
        return product["name"] if product else product_id

    # --- rendering -------------------------------------------------------------------------

    def render(
        self, kind: str, obj: dict[str, Any], expand: list[str] | tuple[str, ...] = ()
    ) -> dict[str, Any]:
        out = self._render_base(kind, obj)
        for path in expand:
            parts = path.split(".")
            if len([p for p in parts if p != "data"]) > MAX_EXPAND_DEPTH:
                raise invalid(
                    f"You cannot expand more than {MAX_EXPAND_DEPTH} levels of a property. Property: {path}",
                    "expand",
                )
            self._expand(kind, obj, out, parts, path)
        return out

    def _render_base(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        out = public(obj)
        base = self.base_url()
        if kind == "checkout.session":
            out["url"] = f"{base}/c/pay/{obj['id']}" if obj["status"] == "open" else None
        elif kind == "payment_link":
            out["url"] = f"{base}/b/{obj['_token']}"
        elif kind == "billing_portal.session":
            out["url"] = f"{base}/p/session/{obj['_token']}"
        elif kind == "invoice":
            out["hosted_invoice_url"] = f"{base}/i/{obj['id']}" if obj["status"] != "draft" else None
        elif kind == "subscription":
            for item in out["items"]["data"]:
                price = self.store.get("price", item["_price"]) if "_price" in item else None
                item.pop("_price", None)
                if price:
                    item["price"] = public(price)
                    item["plan"] = self._plan(price)
        return out

    def _includable(self, kind: str, obj: dict[str, Any], field: str) -> dict[str, Any] | None:
        if kind == "checkout.session" and field == "line_items":
            return self.session_line_items(obj)
        if kind == "payment_link" and field == "line_items":
            return self.link_line_items(obj)
        if kind == "invoice" and field == "payments":
            payments = [p for p in self.store.all("invoice_payment") if p["invoice"] == obj["id"]]
            return self.list_object([public(p) for p in payments], f"/v1/invoices/{obj['id']}/payments")
        if kind == "charge" and field == "refunds":
            refunds = [public(r) for r in self.store.all("refund") if r["charge"] == obj["id"]]
            return self.list_object(refunds, f"/v1/charges/{obj['id']}/refunds")
        return None

    def _expand(
        self, kind: str | None, raw: dict[str, Any] | None, node: Any, parts: list[str], path: str
    ) -> None:
        if not parts or node is None:
            return
        field, rest = parts[0], parts[1:]
        if isinstance(node, dict) and node.get("object") in ("list", "search_result") and field == "data":
            for element in node["data"]:
                element_kind = self._kind_of_rendered(element)
                stored = self.store.get(element_kind, element.get("id", "")) if element_kind else None
                self._expand(element_kind, stored, element, rest, path)
            return
        if not isinstance(node, dict):
            raise invalid(f"This property cannot be expanded ({field}).", "expand")
        if kind and raw is not None:
            included = self._includable(kind, raw, field)
            if included is not None:
                node[field] = included
                self._expand(None, None, included, rest, path)
                return
        if field not in node:
            raise invalid(f"This property cannot be expanded ({field}).", "expand")
        value = node[field]
        if isinstance(value, str):
            found = self.store.find(value)
            if found is None:
                raise invalid(f"This property cannot be expanded ({field}).", "expand")
            child_kind, child = found
            rendered = self._render_base(child_kind, child)
            node[field] = rendered
            self._expand(child_kind, child, rendered, rest, path)
        elif isinstance(value, dict):
            child_kind = self._kind_of_rendered(value)
            stored = self.store.get(child_kind, value.get("id", "")) if child_kind else None
            self._expand(child_kind, stored, value, rest, path)
        elif value is not None:
            raise invalid(f"This property cannot be expanded ({field}).", "expand")

    def _kind_of_rendered(self, rendered: dict[str, Any]) -> str | None:
        object_id = rendered.get("id")
        if isinstance(object_id, str):
            return self.store.kind_of.get(object_id)
        return None

    @staticmethod
    def list_object(data: list[dict[str, Any]], url: str, has_more: bool = False) -> dict[str, Any]:
        return {"object": "list", "data": data, "has_more": has_more, "url": url}

    def _plan(self, price: dict[str, Any]) -> dict[str, Any]:
        recurring = price.get("recurring") or {}
        return {
            "id": price["id"],
            "object": "plan",
            "active": price["active"],
            "amount": price["unit_amount"],
            "amount_decimal": price["unit_amount_decimal"],
            "billing_scheme": "per_unit",
            "created": price["created"],
            "currency": price["currency"],
            "interval": recurring.get("interval"),
            "interval_count": recurring.get("interval_count"),
            "livemode": False,
            "metadata": dict(price["metadata"]),
            "meter": None,
            "nickname": price["nickname"],
            "product": price["product"],
            "tiers_mode": None,
            "transform_usage": None,
            "trial_period_days": None,
            "usage_type": "licensed",
        }

    # --- events ----------------------------------------------------------------------------

    def emit(
        self, event_type: str, kind: str, obj: dict[str, Any], previous: dict[str, Any] | None = None
    ) -> None:
        request = getattr(self._ctx, "request", None) or {"id": None, "idempotency_key": None}
        data: dict[str, Any] = {"object": self._render_base(kind, obj)}
        if previous:
            data["previous_attributes"] = previous
        event = {
            "id": new_id("evt_"),
            "object": "event",
            "api_version": API_VERSION,
            "created": self.now(),
            "data": data,
            "livemode": False,
            "pending_webhooks": 0,
            "request": dict(request),
            "type": event_type,
        }
        self.store.put("event", event)
        self.on_event(event)

    def snapshot(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self._render_base(kind, obj)

    def emit_updated(
        self,
        event_type: str,
        kind: str,
        obj: dict[str, Any],
        before: dict[str, Any],
        only: tuple[str, ...] | None = None,
    ) -> None:
        """`event_type` with previous_attributes: the top-level fields that changed (among
        `only`, if given: bookkeeping fields such as next_invoice_sequence send no event)."""
        after = self._render_base(kind, obj)
        keys = [key for key in after if key != "url" and (only is None or key in only)]
        previous = {key: before.get(key) for key in keys if before.get(key) != after[key]}
        if previous:
            self.emit(event_type, kind, obj, previous)

    # --- products and prices -----------------------------------------------------------------

    def create_product(self, fields: dict[str, Any]) -> dict[str, Any]:
        now = self.now()
        product_id = fields.pop("id", None) or new_id("prod_", 14)
        if self.store.find(product_id):
            raise StripeError(
                400,
                f"Product already exists with ID '{product_id}'.",
                code="resource_already_exists",
                param="id",
            )
        product = {
            "id": product_id,
            "object": "product",
            "active": True,
            "created": now,
            "default_price": None,
            "description": None,
            "images": [],
            "livemode": False,
            "marketing_features": [],
            "metadata": {},
            "name": "",
            "package_dimensions": None,
            "shippable": None,
            "statement_descriptor": None,
            "tax_code": None,
            "type": "service",
            "unit_label": None,
            "updated": now,
            "url": None,
        }
        product.update(fields)
        return self.store.put("product", product)

    def create_price(self, fields: dict[str, Any], transfer_lookup_key: bool) -> dict[str, Any]:
        lookup_key = fields.get("lookup_key")
        if lookup_key:
            self._claim_lookup_key(lookup_key, None, transfer_lookup_key)
        price = {
            "id": new_id("price_"),
            "object": "price",
            "active": True,
            "billing_scheme": "per_unit",
            "created": self.now(),
            "currency": "",
            "custom_unit_amount": None,
            "livemode": False,
            "lookup_key": None,
            "metadata": {},
            "nickname": None,
            "product": "",
            "recurring": None,
            "tax_behavior": "unspecified",
            "tiers_mode": None,
            "transform_quantity": None,
            "type": "one_time",
            "unit_amount": 0,
            "unit_amount_decimal": "0",
        }
        price.update(fields)
        price["unit_amount_decimal"] = str(price["unit_amount"])
        price["type"] = "recurring" if price["recurring"] else "one_time"
        self.store.put("price", price)
        self.emit("price.created", "price", price)
        return price

    def _claim_lookup_key(self, lookup_key: str, owner: str | None, transfer: bool) -> None:
        for other in self.store.all("price"):
            if other["lookup_key"] == lookup_key and other["id"] != owner:
                if not transfer:
                    raise invalid(
                        f"A price (`{other['id']}`) already uses that lookup key.",
                        "lookup_key",
                        "lookup_key_in_use",
                    )
                before = self.snapshot("price", other)
                other["lookup_key"] = None
                self.emit_updated("price.updated", "price", other, before)

    def update_price(
        self, price: dict[str, Any], fields: dict[str, Any], transfer_lookup_key: bool
    ) -> dict[str, Any]:
        before = self.snapshot("price", price)
        if fields.get("lookup_key"):
            self._claim_lookup_key(fields["lookup_key"], price["id"], transfer_lookup_key)
        price.update(fields)
        self.emit_updated("price.updated", "price", price, before)
        return price

    # --- customers ---------------------------------------------------------------------------

    def create_customer(self, fields: dict[str, Any]) -> dict[str, Any]:
        customer = {
            "id": new_id("cus_", 14),
            "object": "customer",
            "address": None,
            "balance": 0,
            "created": self.now(),
            "currency": None,
            "default_source": None,
            "delinquent": False,
            "description": None,
            "discount": None,
            "email": None,
            "invoice_prefix": "".join(
                secrets.choice(string.ascii_uppercase + string.digits) for _ in range(8)
            ),
            "invoice_settings": {
                "custom_fields": None,
                "default_payment_method": None,
                "footer": None,
                "rendering_options": None,
            },
            "livemode": False,
            "metadata": {},
            "name": None,
            "next_invoice_sequence": 1,
            "phone": None,
            "preferred_locales": [],
            "shipping": None,
            "tax_exempt": "none",
            "test_clock": None,
        }
        customer.update(fields)
        self.store.put("customer", customer)
        self.emit("customer.created", "customer", customer)
        return customer

    def update_customer(self, customer: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        before = self.snapshot("customer", customer)
        invoice_settings = fields.pop("invoice_settings", None)
        customer.update(fields)
        if invoice_settings:
            customer["invoice_settings"].update(invoice_settings)
        self.emit_updated("customer.updated", "customer", customer, before)
        return customer

    def delete_customer(self, customer: dict[str, Any]) -> dict[str, Any]:
        for sub in self.store.all("subscription"):
            if sub["customer"] == customer["id"] and sub["status"] not in ("canceled", "incomplete_expired"):
                self.cancel_subscription(sub, reason="cancellation_requested")
        del self.store.tables["customer"][customer["id"]]
        deleted = {"id": customer["id"], "object": "customer", "deleted": True}
        self.store.put("deleted_customer", dict(deleted))
        self.emit("customer.deleted", "customer", customer)
        return deleted

    # --- checkout sessions ---------------------------------------------------------------------

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
            "custom_text": {
                "after_submit": None,
                "shipping_address": None,
                "submit": None,
                "terms_of_service_acceptance": None,
            },
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

    # --- payments --------------------------------------------------------------------------

    def _charge_session(
        self,
        session: dict[str, Any],
        customer: dict[str, Any] | None,
        pm: dict[str, Any],
        outcome: str,
        card: Card | None = None,
    ) -> dict[str, Any]:
        """Payment mode: confirm the session's PaymentIntent (the one a declined attempt left, if
        any, so a later good card pays that same intent), keep its id on the session, return it."""
        pi_data = session["_payment_intent_data"]
        current = session["payment_intent"]
        existing = self.store.get("payment_intent", current) if current else None
        intent, _charge = self._charge(
            amount=session["amount_total"],
            currency=session["currency"],
            customer=customer,
            pm=pm,
            metadata=dict(pi_data.get("metadata") or {}),
            description=pi_data.get("description"),
            outcome=outcome,
            card=card,
            intent=existing,
        )
        session["payment_intent"] = intent["id"]
        return intent

    def _charge(
        self,
        *,
        amount: int,
        currency: str,
        customer: dict[str, Any] | None,
        pm: dict[str, Any],
        metadata: dict[str, str],
        description: str | None,
        outcome: str,
        card: Card | None = None,
        intent: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Confirm a PaymentIntent (new or existing) with `pm`. outcome: succeeded | declined |
        authenticate. Returns (intent, charge or None)."""
        now = self.now()
        if intent is None:
            intent = {
                "id": new_id("pi_"),
                "object": "payment_intent",
                "amount": amount,
                "amount_capturable": 0,
                "amount_details": {"tip": {}},
                "amount_received": 0,
                "application": None,
                "application_fee_amount": None,
                "automatic_payment_methods": None,
                "canceled_at": None,
                "cancellation_reason": None,
                "capture_method": "automatic",
                "client_secret": None,
                "confirmation_method": "automatic",
                "created": now,
                "currency": currency,
                "customer": customer["id"] if customer else None,
                "description": description,
                "last_payment_error": None,
                "latest_charge": None,
                "livemode": False,
                "metadata": metadata,
                "next_action": None,
                "on_behalf_of": None,
                "payment_method": pm["id"],
                "payment_method_configuration_details": None,
                "payment_method_options": {"card": {"request_three_d_secure": "automatic"}},
                "payment_method_types": ["card"],
                "processing": None,
                "receipt_email": None,
                "setup_future_usage": None,
                "shipping": None,
                "source": None,
                "statement_descriptor": None,
                "statement_descriptor_suffix": None,
                "status": "requires_confirmation",
                "transfer_data": None,
                "transfer_group": None,
            }
            intent["client_secret"] = f"{intent['id']}_secret_{secrets.token_hex(12)}"
            self.store.put("payment_intent", intent)
            self.emit("payment_intent.created", "payment_intent", intent)
        intent["payment_method"] = pm["id"]
        if outcome == "authenticate":
            intent["status"] = "requires_action"
            intent["next_action"] = {
                "type": "use_stripe_sdk",
                "use_stripe_sdk": {"type": "three_d_secure_redirect"},
            }
            intent["last_payment_error"] = None
            self.emit("payment_intent.requires_action", "payment_intent", intent)
            return intent, None
        succeeded = outcome == "succeeded"
        charge = {
            "id": new_id("ch_"),
            "object": "charge",
            "amount": amount,
            "amount_captured": amount if succeeded else 0,
            "amount_refunded": 0,
            "application": None,
            "application_fee": None,
            "application_fee_amount": None,
            "balance_transaction": new_id("txn_") if succeeded else None,
            "billing_details": copy.deepcopy(pm["billing_details"]),
            "calculated_statement_descriptor": "TANDEM",
            "captured": succeeded,
            "created": now,
            "currency": currency,
            "customer": customer["id"] if customer else None,
            "description": description,
            "disputed": False,
            "failure_balance_transaction": None,
            "failure_code": None if succeeded else (card.code if card else "card_declined"),
            "failure_message": None if succeeded else (card.message if card else "Your card was declined."),
            "fraud_details": {},
            "livemode": False,
            "metadata": dict(metadata),
            "on_behalf_of": None,
            "outcome": {
                "network_status": "approved_by_network" if succeeded else "declined_by_network",
                "reason": None if succeeded else (card.decline_code if card else "generic_decline"),
                "risk_level": "normal",
                "seller_message": "Payment complete."
                if succeeded
                else "The bank did not return any further details.",
                "type": "authorized" if succeeded else "issuer_declined",
            },
            "paid": succeeded,
            "payment_intent": intent["id"],
            "payment_method": pm["id"],
            "payment_method_details": {
                "card": {
                    k: pm["card"][k]
                    for k in ("brand", "country", "exp_month", "exp_year", "funding", "last4")
                },
                "type": "card",
            },
            "receipt_email": None,
            "receipt_number": None,
            "receipt_url": None,
            "refunded": False,
            "review": None,
            "shipping": None,
            "source_transfer": None,
            "statement_descriptor": None,
            "statement_descriptor_suffix": None,
            "status": "succeeded" if succeeded else "failed",
            "transfer_data": None,
            "transfer_group": None,
        }
        self.store.put("charge", charge)
        intent["latest_charge"] = charge["id"]
        intent["next_action"] = None
        if succeeded:
            intent["status"] = "succeeded"
            intent["amount_received"] = amount
            intent["last_payment_error"] = None
            self.emit("charge.succeeded", "charge", charge)
            self.emit("payment_intent.succeeded", "payment_intent", intent)
        else:
            intent["status"] = "requires_payment_method"
            intent["last_payment_error"] = {
                "charge": charge["id"],
                "code": charge["failure_code"],
                "decline_code": charge["outcome"]["reason"],
                "message": charge["failure_message"],
                "payment_method": public(pm),
                "type": "card_error",
            }
            self.emit("charge.failed", "charge", charge)
            self.emit("payment_intent.payment_failed", "payment_intent", intent)
        return intent, charge

    def _off_session_outcome(self, pm: dict[str, Any] | None) -> tuple[str, Card | None]:
        """What the next off-session charge does: a forced outcome from fail_next_charge first,
        else the saved card's own behaviour."""
        if self.store.fail_next:
            forced = FORCED_OUTCOMES[self.store.fail_next.pop(0)]
            return forced.off_session, forced
        if pm is None:
            return "declined", FORCED_OUTCOMES["card_declined"]
        card = parse_card(pm["_number"])
        assert card is not None
        return card.off_session, card

    def fail_next_charge(self, code: str, count: int = 1) -> None:
        if code not in FORCED_OUTCOMES:
            raise invalid(f"Unknown failure code {code!r}; use one of {sorted(FORCED_OUTCOMES)}", "code")
        self.store.fail_next.extend([code] * count)

    # --- invoices --------------------------------------------------------------------------

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
            payment["status"] = "paid"
            payment["amount_paid"] = invoice["amount_due"]
            payment["status_transitions"]["paid_at"] = self.now()
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
        for line in lines:
            price, quantity = line["price"], line["quantity"]
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=quantity,
                    amount=price["unit_amount"] * quantity,
                    period=(now, now),
                    description=self._describe(price, quantity),
                )
            )
        if customer is not None:  # the payment was already taken at checkout, not from the balance
            saved = customer["balance"]
            customer["balance"] = 0
        self._finalize(invoice, customer)
        if customer is not None:
            customer["balance"] = saved
            invoice["starting_balance"] = invoice["ending_balance"] = saved
        invoice["_payment_intent"] = intent["id"]
        payment = self._invoice_payment(invoice, intent)
        payment["status"] = "paid"
        payment["amount_paid"] = invoice["amount_due"]
        payment["status_transitions"]["paid_at"] = now
        invoice["attempted"] = True
        invoice["attempt_count"] = 1
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

    # --- subscriptions -------------------------------------------------------------------------

    def _item(
        self, sub_id: str, price: dict[str, Any], quantity: int, period: tuple[int, int]
    ) -> dict[str, Any]:
        return {
            "id": new_id("si_", 14),
            "object": "subscription_item",
            "billing_thresholds": None,
            "created": self.now(),
            "current_period_end": period[1],
            "current_period_start": period[0],
            "discounts": [],
            "metadata": {},
            "plan": None,
            "price": None,
            "quantity": quantity,
            "subscription": sub_id,
            "tax_rates": [],
            "_price": price["id"],
        }

    @staticmethod
    def _interval(price: dict[str, Any]) -> tuple[str, int]:
        recurring = price["recurring"]
        return recurring["interval"], recurring["interval_count"]

    def sub_period(self, sub: dict[str, Any]) -> tuple[int, int]:
        first = sub["items"]["data"][0]
        return first["current_period_start"], first["current_period_end"]

    def _set_period(self, sub: dict[str, Any], period: tuple[int, int]) -> None:
        for item in sub["items"]["data"]:
            item["current_period_start"], item["current_period_end"] = period

    def _sub_interval(self, sub: dict[str, Any]) -> tuple[str, int]:
        return self._interval(self.price(sub["items"]["data"][0]["_price"]))

    def _start_subscription(
        self,
        customer: dict[str, Any],
        recurring: list[dict[str, Any]],
        one_time: list[dict[str, Any]],
        *,
        metadata: dict[str, str],
        description: str | None,
        trial_days: int | None,
        trial_end: int | None,
        pm: dict[str, Any],
        billing_mode: str = "flexible",
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        now = self.now()
        interval, count = self._interval(recurring[0]["price"])
        if trial_days:
            trial_end = now + trial_days * DAY
        anchor = trial_end or now
        period = (now, trial_end) if trial_end else (now, period_end(anchor, now, interval, count))
        sub_id = new_id("sub_", 14)
        currency = recurring[0]["price"]["currency"]
        sub = {
            "id": sub_id,
            "object": "subscription",
            "application": None,
            "application_fee_percent": None,
            "automatic_tax": {"disabled_reason": None, "enabled": False, "liability": None},
            "billing_cycle_anchor": anchor,
            "billing_cycle_anchor_config": None,
            # Recorded as asked (Stripe's default since 2025-09-30 is flexible); the fake prorates
            # every subscription the classic way (docs/decisions.md, 2026-11-26).
            "billing_mode": {"flexible": None, "type": billing_mode},
            "billing_thresholds": None,
            "cancel_at": None,
            "cancel_at_period_end": False,
            "canceled_at": None,
            "cancellation_details": {"comment": None, "feedback": None, "reason": None},
            "collection_method": "charge_automatically",
            "created": now,
            "currency": currency,
            "customer": customer["id"],
            "days_until_due": None,
            "default_payment_method": pm["id"],
            "default_source": None,
            "default_tax_rates": [],
            "description": description,
            "discounts": [],
            "ended_at": None,
            "invoice_settings": {"account_tax_ids": None, "issuer": {"type": "self"}},
            "items": self.list_object(
                [self._item(sub_id, line["price"], line["quantity"], period) for line in recurring],
                f"/v1/subscription_items?subscription={sub_id}",
            ),
            "latest_invoice": None,
            "livemode": False,
            "metadata": metadata,
            "next_pending_invoice_item_invoice": None,
            "on_behalf_of": None,
            "pause_collection": None,
            "payment_settings": {
                "payment_method_options": None,
                "payment_method_types": None,
                "save_default_payment_method": "off",
            },
            "pending_invoice_item_interval": None,
            "pending_setup_intent": None,
            "pending_update": None,
            "schedule": None,
            "start_date": now,
            "status": "trialing" if trial_end else "incomplete",
            "test_clock": None,
            "transfer_data": None,
            "trial_end": trial_end,
            "trial_settings": {"end_behavior": {"missing_payment_method": "create_invoice"}},
            "trial_start": now if trial_end else None,
            "_trial_will_end_sent": False,
            "_pending_items": [],
        }
        sub["items"]["total_count"] = len(recurring)
        self.store.put("subscription", sub)
        self.emit("customer.subscription.created", "subscription", sub)
        invoice = self._new_invoice(customer, sub, "subscription_create", period, currency)
        for item, line in zip(sub["items"]["data"], recurring, strict=True):
            price, quantity = line["price"], line["quantity"]
            amount = 0 if trial_end else price["unit_amount"] * quantity
            text = f"Trial period for {self.product_name(price['product'])}" if trial_end else None
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=quantity,
                    amount=amount,
                    period=period,
                    description=text or self._describe(price, quantity),
                    sub=sub,
                    sub_item=item["id"],
                )
            )
        for line in one_time:
            price, quantity = line["price"], line["quantity"]
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=quantity,
                    amount=price["unit_amount"] * quantity,
                    period=(now, now),
                    description=self._describe(price, quantity),
                    sub=sub,
                )
            )
        self._finalize(invoice, customer)
        sub["latest_invoice"] = invoice["id"]
        # The card was verified on the checkout page: this first payment goes through.
        card_outcome = "succeeded"
        if invoice["amount_due"] > 0:
            intent, _ = self._charge(
                amount=invoice["amount_due"],
                currency=currency,
                customer=customer,
                pm=pm,
                metadata={},
                description="Subscription creation",
                outcome=card_outcome,
            )
            invoice["_payment_intent"] = intent["id"]
            payment = self._invoice_payment(invoice, intent)
            payment["status"] = "paid"
            payment["amount_paid"] = invoice["amount_due"]
            payment["status_transitions"]["paid_at"] = self.now()
            invoice["attempted"] = True
            invoice["attempt_count"] = 1
        self._mark_paid(invoice)
        before = self.snapshot("subscription", sub)
        if sub["status"] == "incomplete":
            sub["status"] = "active"
        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        return sub, invoice

    def _settle_status(self, sub: dict[str, Any]) -> None:
        """past_due/incomplete -> active once no invoice of the subscription is left open."""
        if sub["status"] not in ("past_due", "incomplete", "unpaid"):
            return
        open_invoices = [
            inv
            for inv in self.store.all("invoice")
            if inv["status"] == "open" and (self._invoice_subscription(inv) or {}).get("id") == sub["id"]
        ]
        if not open_invoices:
            before = self.snapshot("subscription", sub)
            sub["status"] = "active"
            self.emit_updated("customer.subscription.updated", "subscription", sub, before)

    def update_subscription(self, sub: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        """params already validated by api.py: cancel_at_period_end (bool), cancel_at (int|None),
        items ([{id?, price?, quantity?, deleted?}]), proration_behavior, proration_date,
        payment_behavior, billing_cycle_anchor, metadata (merged dict), cancellation_details,
        default_payment_method, description."""
        if sub["status"] in ("canceled", "incomplete_expired"):
            allowed = {"metadata", "cancellation_details"}
            if set(params) - allowed:
                raise invalid(
                    "A canceled subscription can only update its cancellation_details and metadata.",
                    None,
                    "resource_missing",
                )
        before = self.snapshot("subscription", sub)
        now = self.now()
        proration_behavior = params.get("proration_behavior", "create_prorations")
        payment_behavior = params.get("payment_behavior", "allow_incomplete")
        proration_date = params.get("proration_date") or now
        start, end = self.sub_period(sub)

        plan = None
        decided: tuple[str, Card | None] | None = None
        if "items" in params:
            plan = self._plan_items(sub, params["items"])
        invoice_now = False
        prorations: list[dict[str, Any]] = []
        new_period = (start, end)
        if plan is not None:
            old_interval = self._sub_interval(sub)
            new_interval = self._interval(plan[0]["price"]) if plan else old_interval
            reset = new_interval != old_interval or params.get("billing_cycle_anchor") == "now"
            if reset:
                new_period = (now, add_interval(now, *new_interval))
            prorations = self._prorations(sub, plan, proration_date, (start, end), reset, proration_behavior)
            invoice_now = reset or (proration_behavior == "always_invoice" and bool(prorations))
            if invoice_now and payment_behavior == "error_if_incomplete":
                amount = sum(p["amount"] for p in prorations) + (
                    sum(p["price"]["unit_amount"] * p["quantity"] for p in plan) if reset else 0
                )
                if amount + self.get("customer", sub["customer"])["balance"] > 0:
                    decided = self._off_session_outcome(self._default_pm(sub, sub["customer"]))
                    outcome, card = decided
                    if outcome == "authenticate":
                        raise StripeError(
                            402,
                            "Payment for this subscription requires additional user action before it "
                            "can be completed successfully.",
                            type_="card_error",
                            code="subscription_payment_intent_requires_action",
                        )
                    if outcome != "succeeded":
                        assert card is not None
                        raise StripeError(
                            402,
                            card.message,
                            type_="card_error",
                            code=card.code,
                            decline_code=card.decline_code,
                        )
            self._apply_items(sub, plan, new_period)
            if reset:
                sub["billing_cycle_anchor"] = now

        if "cancel_at_period_end" in params:
            if params["cancel_at_period_end"]:
                sub["cancel_at_period_end"] = True
                sub["cancel_at"] = self.sub_period(sub)[1]
                sub["canceled_at"] = now
                sub["cancellation_details"]["reason"] = "cancellation_requested"
            else:
                sub["cancel_at_period_end"] = False
                sub["cancel_at"] = None
                sub["canceled_at"] = None
                sub["cancellation_details"]["reason"] = None
        if "cancel_at" in params:
            cancel_at = params["cancel_at"]
            sub["cancel_at"] = cancel_at
            sub["cancel_at_period_end"] = cancel_at is not None and cancel_at == self.sub_period(sub)[1]
            sub["canceled_at"] = now if cancel_at else None
            sub["cancellation_details"]["reason"] = "cancellation_requested" if cancel_at else None
        if "cancellation_details" in params:
            sub["cancellation_details"].update(params["cancellation_details"])
        if "metadata" in params:
            sub["metadata"] = params["metadata"]
        if "description" in params:
            sub["description"] = params["description"]
        if "default_payment_method" in params:
            sub["default_payment_method"] = params["default_payment_method"]

        invoice = None
        if plan is not None and invoice_now:
            invoice = self._new_invoice(
                self.get("customer", sub["customer"]), sub, "subscription_update", new_period, sub["currency"]
            )
            self._add_proration_lines(invoice, sub, prorations)
            if new_period[0] == now and new_period != (start, end):
                self._add_period_lines(invoice, sub, new_period)
            self._add_pending_lines(invoice, sub)
            sub["latest_invoice"] = invoice["id"]
        elif prorations and proration_behavior == "create_prorations":
            sub["_pending_items"].extend(prorations)

        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        if invoice is not None:
            customer = self.get("customer", sub["customer"])
            self._finalize(invoice, customer)
            outcome = self.collect(invoice, self._default_pm(sub, sub["customer"]), decided=decided)
            if outcome != "succeeded":
                before = self.snapshot("subscription", sub)
                sub["status"] = "past_due"
                self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        return sub

    def _plan_items(self, sub: dict[str, Any], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The subscription's items after the update: [{id or None, price, quantity}]."""
        current = {item["id"]: item for item in sub["items"]["data"]}
        result = {
            item["id"]: {"id": item["id"], "price": self.price(item["_price"]), "quantity": item["quantity"]}
            for item in sub["items"]["data"]
        }
        added: list[dict[str, Any]] = []
        for index, change in enumerate(items):
            param = f"items[{index}]"
            if change.get("id"):
                if change["id"] not in current:
                    raise missing("subscription_item", change["id"], f"{param}[id]")
                if change.get("deleted"):
                    result.pop(change["id"], None)
                    continue
                entry = result[change["id"]]
                if change.get("price"):
                    entry["price"] = self._recurring_price(change["price"], sub, f"{param}[price]")
                if change.get("quantity") is not None:
                    entry["quantity"] = change["quantity"]
            else:
                if not change.get("price"):
                    raise invalid("You must provide a price for a new subscription item.", f"{param}[price]")
                added.append(
                    {
                        "id": None,
                        "price": self._recurring_price(change["price"], sub, f"{param}[price]"),
                        "quantity": change.get("quantity") or 1,
                    }
                )
        plan = list(result.values()) + added
        if not plan:
            raise invalid("A subscription must have at least one item.", "items")
        prices = [entry["price"]["id"] for entry in plan]
        if len(set(prices)) != len(prices):
            raise invalid("Cannot add multiple subscription items with the same price.", "items")
        intervals = {self._interval(entry["price"]) for entry in plan}
        if len(intervals) > 1:
            raise invalid("All prices on a subscription must have the same `recurring.interval`.", "items")
        return plan

    def _recurring_price(self, price_id: str, sub: dict[str, Any], param: str) -> dict[str, Any]:
        price = self.price(price_id, param)
        if not price["recurring"]:
            raise invalid(
                "The price specified is set to `type=one_time` but this field only accepts prices with "
                "`type=recurring`.",
                param,
            )
        if not price["active"]:
            raise invalid("The price specified is inactive. This field only accepts active prices.", param)
        if price["currency"] != sub["currency"]:
            raise invalid(
                f"The price currency must match the subscription currency ({sub['currency']}).", param
            )
        return price

    def _prorations(
        self,
        sub: dict[str, Any],
        plan: list[dict[str, Any]],
        at: int,
        period: tuple[int, int],
        reset: bool,
        behavior: str,
    ) -> list[dict[str, Any]]:
        """Proration items: credit for unused time of what is removed or changed; charge for the
        remaining time of what is added or changed (not when the period resets: the new period
        is billed in full)."""
        if behavior == "none" or sub["status"] == "trialing":
            return []
        start, end = period
        if end <= start or at >= end:
            return []
        fraction = (end - at) / (end - start)
        old = {item["id"]: item for item in sub["items"]["data"]}
        planned = {entry["id"]: entry for entry in plan if entry["id"]}
        result: list[dict[str, Any]] = []
        for item_id, item in old.items():
            price = self.price(item["_price"])
            entry = planned.get(item_id)
            unchanged = (
                entry and entry["price"]["id"] == price["id"] and entry["quantity"] == item["quantity"]
            )
            if unchanged and not reset:
                continue
            quantity = item["quantity"]
            result.append(
                {
                    "price": price,
                    "quantity": quantity,
                    "amount": -round(price["unit_amount"] * quantity * fraction),
                    "period": (at, end),
                    "description": f"Unused time on {self._describe_short(price, quantity)} after "
                    f"{format_date(at)}",
                    "item": item_id,
                }
            )
        if not reset:
            for entry in plan:
                prior = old.get(entry["id"]) if entry["id"] else None
                if (
                    prior
                    and prior["_price"] == entry["price"]["id"]
                    and prior["quantity"] == entry["quantity"]
                ):
                    continue
                price, quantity = entry["price"], entry["quantity"]
                result.append(
                    {
                        "price": price,
                        "quantity": quantity,
                        "amount": round(price["unit_amount"] * quantity * fraction),
                        "period": (at, end),
                        "description": f"Remaining time on {self._describe_short(price, quantity)} after "
                        f"{format_date(at)}",
                        "item": entry["id"],
                    }
                )
        for proration in result:
            proration["price"] = proration["price"]["id"]
            proration["invoice_item"] = new_id("ii_")
        return result

    def _describe_short(self, price: dict[str, Any], quantity: int) -> str:
        name = self.product_name(price["product"])
        return f"{quantity} × {name}" if quantity != 1 else name

    def _apply_items(self, sub: dict[str, Any], plan: list[dict[str, Any]], period: tuple[int, int]) -> None:
        current = {item["id"]: item for item in sub["items"]["data"]}
        items = []
        for entry in plan:
            if entry["id"]:
                item = current[entry["id"]]
                item["_price"] = entry["price"]["id"]
                item["quantity"] = entry["quantity"]
            else:
                item = self._item(sub["id"], entry["price"], entry["quantity"], period)
                entry["id"] = item["id"]
            item["current_period_start"], item["current_period_end"] = period
            items.append(item)
        sub["items"]["data"] = items
        sub["items"]["total_count"] = len(items)

    def _add_proration_lines(
        self, invoice: dict[str, Any], sub: dict[str, Any], prorations: list[dict[str, Any]]
    ) -> None:
        for proration in prorations:
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=self.price(proration["price"]),
                    quantity=proration["quantity"],
                    amount=proration["amount"],
                    period=tuple(proration["period"]),  # type: ignore[arg-type]
                    description=proration["description"],
                    sub=sub,
                    sub_item=proration["item"],
                    proration=True,
                    invoice_item=proration["invoice_item"],
                )
            )

    def _add_period_lines(
        self, invoice: dict[str, Any], sub: dict[str, Any], period: tuple[int, int]
    ) -> None:
        for item in sub["items"]["data"]:
            price = self.price(item["_price"])
            invoice["lines"]["data"].append(
                self._line(
                    invoice,
                    price=price,
                    quantity=item["quantity"],
                    amount=price["unit_amount"] * item["quantity"],
                    period=period,
                    description=self._describe(price, item["quantity"]),
                    sub=sub,
                    sub_item=item["id"],
                )
            )

    def _add_pending_lines(self, invoice: dict[str, Any], sub: dict[str, Any]) -> None:
        self._add_proration_lines(invoice, sub, sub["_pending_items"])
        sub["_pending_items"] = []

    def cancel_subscription(
        self,
        sub: dict[str, Any],
        *,
        reason: str,
        comment: str | None = None,
        feedback: str | None = None,
        at: int | None = None,
    ) -> dict[str, Any]:
        if sub["status"] in ("canceled", "incomplete_expired"):
            raise invalid(f"No such subscription: '{sub['id']}'", "id", "resource_missing")
        now = at or self.now()
        sub["status"] = "canceled"
        sub["ended_at"] = now
        sub["canceled_at"] = sub["canceled_at"] or now
        sub["cancellation_details"]["reason"] = reason
        if comment is not None:
            sub["cancellation_details"]["comment"] = comment
        if feedback is not None:
            sub["cancellation_details"]["feedback"] = feedback
        sub["_pending_items"] = []
        self.emit("customer.subscription.deleted", "subscription", sub)
        return sub

    # --- the clock -------------------------------------------------------------------------

    def advance(self, seconds: int) -> int:
        """Move the clock forward, running what falls due in time order: checkout expiries,
        trial-ending notices, period ends (renewal or the end of a cancelled plan), payment
        retries. Returns the new time."""
        if seconds < 0:
            raise invalid("The clock only moves forward.", "seconds")
        target = self.now() + seconds
        while True:
            due = self._next_due(target)
            if due is None:
                break
            when, action = due
            self._set_clock(when)
            action()
        self._set_clock(target)
        return self.now()

    def _next_due(self, target: int) -> tuple[int, Callable[[], None]] | None:
        candidates: list[tuple[int, int, Callable[[], None]]] = []
        for session in self.store.all("checkout.session"):
            if session["status"] == "open" and session["expires_at"] <= target:
                candidates.append(
                    (session["expires_at"], session["_seq"], lambda s=session: self.expire_session(s))
                )
        for sub in self.store.all("subscription"):
            if sub["status"] not in LIVE_SUBSCRIPTION:
                continue
            end = self.sub_period(sub)[1]
            if sub["cancel_at"] and sub["cancel_at"] < end and sub["cancel_at"] <= target:
                candidates.append(
                    (
                        sub["cancel_at"],
                        sub["_seq"],
                        lambda s=sub: self.cancel_subscription(
                            s, reason="cancellation_requested", at=s["cancel_at"]
                        ),
                    )
                )
            elif end <= target:
                candidates.append((end, sub["_seq"], lambda s=sub: self._period_end(s)))
            if (
                sub["status"] == "trialing"
                and sub["trial_end"]
                and not sub["_trial_will_end_sent"]
                and sub["trial_end"] - TRIAL_WILL_END_NOTICE <= target
            ):
                when = max(self.now(), sub["trial_end"] - TRIAL_WILL_END_NOTICE)
                candidates.append((when, sub["_seq"], lambda s=sub: self._trial_will_end(s)))
        for invoice in self.store.all("invoice"):
            retry_at = invoice["next_payment_attempt"]
            if invoice["status"] == "open" and retry_at and retry_at <= target:
                candidates.append((retry_at, invoice["_seq"], lambda i=invoice: self._retry(i)))
        if not candidates:
            return None
        when, _, action = min(candidates, key=lambda c: (c[0], c[1]))
        return when, action

    def _trial_will_end(self, sub: dict[str, Any]) -> None:
        sub["_trial_will_end_sent"] = True
        self.emit("customer.subscription.trial_will_end", "subscription", sub)

    def _period_end(self, sub: dict[str, Any]) -> None:
        start, end = self.sub_period(sub)
        if sub["cancel_at_period_end"] or (sub["cancel_at"] and sub["cancel_at"] <= end):
            self.cancel_subscription(sub, reason="cancellation_requested", at=end)
            return
        before = self.snapshot("subscription", sub)
        interval, count = self._sub_interval(sub)
        new_period = (end, period_end(sub["billing_cycle_anchor"], end, interval, count))
        self._set_period(sub, new_period)
        if sub["status"] == "trialing":
            sub["status"] = "active"
        customer = self.get("customer", sub["customer"])
        invoice = self._new_invoice(customer, sub, "subscription_cycle", new_period, sub["currency"])
        self._add_period_lines(invoice, sub, new_period)
        self._add_pending_lines(invoice, sub)
        sub["latest_invoice"] = invoice["id"]
        self.emit_updated("customer.subscription.updated", "subscription", sub, before)
        self._finalize(invoice, customer)
        outcome = self.collect(invoice, self._default_pm(sub, sub["customer"]))
        if outcome != "succeeded" and sub["status"] != "past_due":
            before = self.snapshot("subscription", sub)
            sub["status"] = "past_due"
            self.emit_updated("customer.subscription.updated", "subscription", sub, before)

    def _retry(self, invoice: dict[str, Any]) -> None:
        sub = self._invoice_subscription(invoice)
        if sub is not None and sub["status"] == "canceled":
            invoice["next_payment_attempt"] = None
            return
        outcome = self._pay_open_invoice(invoice, self._default_pm(sub, invoice["customer"]), None)
        if outcome == "declined" and invoice["next_payment_attempt"] is None and sub is not None:
            # retries exhausted: the subscription ends (Stripe's default dunning setting)
            self.cancel_subscription(sub, reason="payment_failed")


def _invoice_description(billing_reason: str) -> str | None:
    return {
        "subscription_create": "Subscription creation",
        "subscription_cycle": "Subscription update",
        "subscription_update": "Subscription update",
    }.get(billing_reason)


SEARCH_CLAUSE = re.compile(
    r"""\s*(?P<neg>-)?(?P<field>metadata\[(?:'[^']*'|"[^"]*")\]|[a-z_]+)\s*(?P<op>:|~|>=|<=|>|<)\s*"""
    r"""(?P<value>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[0-9]+|null)\s*"""
)


def parse_search(query: str) -> tuple[str, list[tuple[bool, str, str, str | int | None]]]:
    """Stripe's search language (the part we need): clauses `field:'v'`, `field~'v'`,
    `field>n`, `metadata['k']:'v'`, `-` to negate, joined by AND or OR (not both)."""
    clauses = []
    joins = set()
    rest = query.strip()
    if not rest:
        raise invalid("The search query is empty.", "query")
    while rest:
        match = SEARCH_CLAUSE.match(rest)
        if not match:
            raise invalid(f"Could not parse the search query at: {rest[:40]}", "query")
        raw = match.group("value")
        value: str | int | None
        if raw == "null":
            value = None
        elif raw[0] in "'\"":
            value = raw[1:-1].replace("\\'", "'").replace('\\"', '"')
        else:
            value = int(raw)
        clauses.append((bool(match.group("neg")), match.group("field"), match.group("op"), value))
        rest = rest[match.end() :]
        if rest:
            join = re.match(r"(AND|OR)\s+", rest)
            if not join:
                raise invalid(f"Could not parse the search query at: {rest[:40]}", "query")
            joins.add(join.group(1))
            rest = rest[join.end() :]
    if len(joins) > 1:
        raise invalid("A search query cannot mix AND and OR.", "query")
    return (joins.pop() if joins else "AND"), clauses


def search_matches(obj: dict[str, Any], join: str, clauses: list[tuple[bool, str, str, Any]]) -> bool:
    results = []
    for negate, field, op, value in clauses:
        if field.startswith("metadata["):
            actual: Any = (obj.get("metadata") or {}).get(field[10:-2])
        else:
            actual = obj.get(field)
        if isinstance(actual, bool):
            actual = "true" if actual else "false"
        if op == ":":
            ok = (actual is None) if value is None else (actual is not None and str(actual) == str(value))
        elif op == "~":
            ok = isinstance(actual, str) and str(value).lower() in actual.lower()
        else:
            try:
                number, limit = int(actual), int(value)
            except (TypeError, ValueError):
                ok = False
            else:
                ok = {">": number > limit, "<": number < limit, ">=": number >= limit, "<=": number <= limit}[
                    op
                ]
        results.append(ok != negate)
    return all(results) if join == "AND" else any(results)
