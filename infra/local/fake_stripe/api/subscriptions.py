"""/v1/subscriptions (made by a checkout, never by POST /v1/subscriptions)."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.api.base import ApiBase, Listing, Params, RawParams, created, equals
from infra.local.fake_stripe.util import invalid

ENDED = ("canceled", "incomplete_expired")
STATUSES = (
    "active",
    "all",
    "canceled",
    "ended",
    "incomplete",
    "incomplete_expired",
    "past_due",
    "paused",
    "trialing",
    "unpaid",
)


def _status(params: Params, name: str) -> Any:
    """Stripe lists the subscriptions that have not ended unless asked for `all` or `ended`."""
    status = params.str(name, choices=STATUSES)
    if status == "all":
        return None
    if status is None:
        return lambda s: s["status"] not in ENDED
    if status == "ended":
        return lambda s: s["status"] in ENDED
    return lambda s: s["status"] == status


def _price(params: Params, name: str) -> Any:
    price = params.str(name)
    return None if not price else (lambda s: any(item["_price"] == price for item in s["items"]["data"]))


ROUTES = [
    ("/v1/subscriptions/<id>", "POST", "update_subscription"),
    ("/v1/subscriptions/<id>", "DELETE", "cancel_subscription"),
]
RETRIEVE = {"/v1/subscriptions/<id>": "subscription"}
LISTINGS = {
    "subscriptions": Listing(
        "subscription",
        "/v1/subscriptions",
        {"customer": equals(), "price": _price, "status": _status, "created": created},
        accepted=("collection_method",),
    )
}


class SubscriptionsApi(ApiBase):
    def update_subscription(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(
            (
                "cancel_at_period_end",
                "cancel_at",
                "items",
                "proration_behavior",
                "proration_date",
                "payment_behavior",
                "billing_cycle_anchor",
                "metadata",
                "cancellation_details",
                "default_payment_method",
                "description",
            )
        )
        sub = self.engine.get("subscription", id)
        changes: dict[str, Any] = {}
        if params.has("cancel_at_period_end"):
            changes["cancel_at_period_end"] = params.bool("cancel_at_period_end")
        if params.has("cancel_at"):
            if (
                params.has("cancel_at_period_end")
                and changes["cancel_at_period_end"]
                and params.raw("cancel_at")
            ):
                raise invalid(
                    "You may only specify one of these parameters: cancel_at, cancel_at_period_end.",
                    "cancel_at",
                )
            cancel_at = params.int("cancel_at")
            if cancel_at is not None and cancel_at <= self.engine.now():
                raise invalid("cancel_at must be in the future.", "cancel_at")
            changes["cancel_at"] = cancel_at
        if params.has("items"):
            items = []
            for index, raw in enumerate(params.list("items")):
                item = Params(
                    raw if isinstance(raw, dict) else {},
                    ("id", "price", "quantity", "deleted", "metadata"),
                    (),
                    f"items[{index}]",
                )
                items.append(
                    {
                        "id": item.str("id"),
                        "price": item.str("price"),
                        "quantity": item.int("quantity", minimum=1),
                        "deleted": item.bool("deleted", False),
                    }
                )
            changes["items"] = items
        if params.has("proration_behavior"):
            changes["proration_behavior"] = params.str(
                "proration_behavior", choices=("create_prorations", "none", "always_invoice")
            )
        if params.has("proration_date"):
            start, end = self.engine.sub_period(sub)
            date = params.int("proration_date")
            if not start <= date <= end:
                raise invalid("proration_date must be within the current billing period.", "proration_date")
            changes["proration_date"] = date
        if params.has("payment_behavior"):
            behavior = params.str(
                "payment_behavior",
                choices=(
                    "allow_incomplete",
                    "default_incomplete",
                    "error_if_incomplete",
                    "pending_if_incomplete",
                ),
            )
            if behavior in ("pending_if_incomplete", "default_incomplete"):
                raise invalid(
                    f"payment_behavior={behavior} is not supported by the local fake.", "payment_behavior"
                )
            changes["payment_behavior"] = behavior
        if params.has("billing_cycle_anchor"):
            changes["billing_cycle_anchor"] = params.str("billing_cycle_anchor", choices=("now", "unchanged"))
        if params.has("metadata"):
            changes["metadata"] = self._metadata(params, sub["metadata"])
        if params.has("cancellation_details"):
            details = params.sub("cancellation_details", ("comment", "feedback"))
            changes["cancellation_details"] = {
                k: details.str(k) for k in ("comment", "feedback") if details.has(k)
            }
        if params.has("description"):
            changes["description"] = params.str("description", max_length=500)
        if params.has("default_payment_method"):
            pm_id = params.str("default_payment_method")
            if pm_id:
                pm = self.engine.get("payment_method", pm_id, "default_payment_method")
                if pm["customer"] != sub["customer"]:
                    raise invalid(
                        "The payment method must be attached to the subscription's customer.",
                        "default_payment_method",
                    )
            changes["default_payment_method"] = pm_id
        sub = self.engine.update_subscription(sub, changes)
        return self._render("subscription", sub, params)

    def cancel_subscription(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(("cancellation_details", "invoice_now", "prorate"))
        if params.bool("invoice_now", False) or params.bool("prorate", False):
            raise invalid("invoice_now and prorate on cancel are not supported by the local fake.", "prorate")
        details = params.sub("cancellation_details", ("comment", "feedback"))
        sub = self.engine.get("subscription", id)
        sub = self.engine.cancel_subscription(
            sub,
            reason="cancellation_requested",
            comment=details.str("comment"),
            feedback=details.str("feedback"),
        )
        return self._render("subscription", sub, params)
