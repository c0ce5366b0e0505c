"""What every part of the engine shares: the constants of the API version it imitates, lookups,
rendering an object as the API returns it (with `expand`), and emitting events.

Shapes follow the API version the pinned stripe-python sends (`API_VERSION`): billing periods
live on subscription items, an invoice names its subscription under
`parent.subscription_details` and its payments in the includable `payments` list.
"""

from __future__ import annotations

import contextlib
import secrets
import string
import threading
from collections.abc import Callable, Iterator
from typing import Any

from stripe._api_version import _ApiVersion

from infra.local.fake_stripe.store import Store, public
from infra.local.fake_stripe.util import invalid, missing, new_id

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


def no_custom_text() -> dict[str, Any]:
    """A hosted page's custom_text when none is set (Checkout Sessions, payment links)."""
    return dict.fromkeys(("after_submit", "shipping_address", "submit", "terms_of_service_acceptance"))


def url_token() -> str:
    alphabet = string.ascii_letters + string.digits
    return "test_" + "".join(secrets.choice(alphabet) for _ in range(24))


class EngineBase:
    def __init__(
        self, store: Store, base_url: Callable[[], str], account_name: str = "Tandem (local)"
    ) -> None:
        self.store = store
        self.base_url = base_url
        self.account_name = account_name
        self.on_event: Callable[[dict[str, Any]], None] = lambda event: None
        self._ctx = threading.local()

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
            payments = self.store.matching("invoice_payment", lambda p: p["invoice"] == obj["id"])
            return self.list_object([public(p) for p in payments], f"/v1/invoices/{obj['id']}/payments")
        if kind == "charge" and field == "refunds":
            refunds = [public(r) for r in self.store.matching("refund", lambda r: r["charge"] == obj["id"])]
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
