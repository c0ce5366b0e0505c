"""/v1/checkout/sessions (the hosted page that pays them is pages.py)."""

from __future__ import annotations

import copy
from typing import Any

from infra.local.fake_stripe.api.base import (
    CLIENT_REFERENCE,
    ApiBase,
    Listing,
    Params,
    RawParams,
    created,
    equals,
)
from infra.local.fake_stripe.engine.links import link_invoice_creation
from infra.local.fake_stripe.util import StripeError, invalid, metadata_update

SESSION_PARAMS = (
    "mode",
    "line_items",
    "customer",
    "customer_email",
    "customer_creation",
    "client_reference_id",
    "metadata",
    "success_url",
    "cancel_url",
    "subscription_data",
    "payment_intent_data",
    "allow_promotion_codes",
    "invoice_creation",
    "expires_at",
    "locale",
    "billing_address_collection",
    "payment_method_types",
    "ui_mode",
    "submit_type",
    "customer_update",
    "consent_collection",
    "phone_number_collection",
    "tax_id_collection",
    "automatic_tax",
    "custom_text",
    "payment_method_collection",
    "saved_payment_method_options",
)
SUBSCRIPTION_DATA = (
    "metadata",
    "description",
    "trial_period_days",
    "trial_end",
    "proration_behavior",
    "default_tax_rates",
    "billing_mode",
)
PAYMENT_INTENT_DATA = (
    "metadata",
    "description",
    "receipt_email",
    "setup_future_usage",
    "statement_descriptor",
    "statement_descriptor_suffix",
)


def only_in(params: Params, key: str, mode: str, wanted: str) -> bool:
    """Whether `key` is given; refused unless the session or link is in `wanted` mode."""
    if params.has(key) and mode != wanted:
        raise invalid(f"You can only specify `{key}` in `{wanted}` mode.", key)
    return params.has(key)


def page_options(params: Params) -> dict[str, Any]:
    """The options of the hosted page a Checkout Session and a payment link share."""
    fields: dict[str, Any] = {}
    if params.has("allow_promotion_codes"):
        fields["allow_promotion_codes"] = params.bool("allow_promotion_codes")
    if params.has("billing_address_collection"):
        fields["billing_address_collection"] = params.str(
            "billing_address_collection", choices=("auto", "required")
        )
    if params.has("submit_type"):
        fields["submit_type"] = params.str(
            "submit_type", choices=("auto", "book", "donate", "pay", "subscribe")
        )
    if params.has("payment_method_types") and set(params.list("payment_method_types")) - {"card"}:
        raise invalid("The local fake supports only the `card` payment method type.", "payment_method_types")
    return fields


def new_metadata(params: Params) -> dict[str, str]:
    return metadata_update({}, params.raw("metadata") or {}, params.name("metadata"))


def invoice_creation(params: Params, current: dict[str, Any]) -> dict[str, Any]:
    """`invoice_creation` (payment mode only) applied to `current`."""
    creation = params.sub("invoice_creation", ("enabled", "invoice_data"), ("enabled",))
    data = creation.sub("invoice_data", ("metadata", "description", "footer"))
    result = copy.deepcopy(current)
    result["enabled"] = creation.bool("enabled")
    result["invoice_data"].update(
        {
            "description": data.str("description"),
            "footer": data.str("footer"),
            "metadata": new_metadata(data),
        }
    )
    return result


def _described(data: Params, max_length: int) -> dict[str, Any]:
    """The metadata and description of a session's subscription_data or payment_intent_data."""
    described: dict[str, Any] = {}
    if data.has("metadata"):
        described["metadata"] = new_metadata(data)
    if data.has("description"):
        described["description"] = data.str("description", max_length=max_length)
    return described


def _customer_email(params: Params, name: str) -> Any:
    if not params.has(name):
        return None
    email = params.sub(name, ("email",), ("email",)).str("email")
    return lambda s: (s["customer_details"] or {}).get("email") == email


ROUTES = [
    ("/v1/checkout/sessions", "POST", "create_session"),
    ("/v1/checkout/sessions/<id>/expire", "POST", "expire_session"),
]
RETRIEVE = {"/v1/checkout/sessions/<id>": "checkout.session"}
LISTINGS = {
    "checkout_sessions": Listing(
        "checkout.session",
        "/v1/checkout/sessions",
        {
            "customer": equals(),
            "payment_intent": equals(),
            "payment_link": equals(),
            "subscription": equals(),
            "status": equals(choices=("open", "complete", "expired")),
            "customer_details": _customer_email,
            "created": created,
        },
    )
}


class CheckoutApi(ApiBase):
    def _line_items(self, params: Params, mode: str, param: str = "line_items") -> list[dict[str, Any]]:
        raw = params.list(param)
        if not raw:
            raise StripeError(400, f"Missing required param: {param}.", code="parameter_missing", param=param)
        lines = []
        currencies = set()
        intervals = set()
        for index, item in enumerate(raw):
            name = f"{param}[{index}]"
            line = Params(
                item if isinstance(item, dict) else {},
                ("price", "quantity", "adjustable_quantity"),
                ("price",),
                name,
            )
            if line.has("adjustable_quantity"):
                raise invalid(
                    "adjustable_quantity is not supported by the local fake.", f"{name}[adjustable_quantity]"
                )
            price = self.engine.price(line.str("price"), f"{name}[price]")
            if not price["active"]:
                raise invalid(
                    "The price specified is inactive. This field only accepts active prices.",
                    f"{name}[price]",
                )
            quantity = line.int("quantity", None, minimum=1, maximum=999_999)
            if quantity is None:
                raise StripeError(
                    400,
                    f"Missing required param: {name}[quantity].",
                    code="parameter_missing",
                    param=f"{name}[quantity]",
                )
            currencies.add(price["currency"])
            if price["recurring"]:
                intervals.add((price["recurring"]["interval"], price["recurring"]["interval_count"]))
            lines.append({"price": price["id"], "quantity": quantity})
        if len(currencies) > 1:
            raise invalid("All prices in a Checkout Session must have the same currency.", param)
        if mode == "payment" and intervals:
            raise invalid(
                "You specified `payment` mode but passed a recurring price. Either switch to "
                "`subscription` mode or use only one-time prices.",
                param,
            )
        if mode == "subscription" and not intervals:
            raise invalid(
                "You must provide at least one recurring price in `subscription` mode when using prices.",
                param,
            )
        if len(intervals) > 1:
            raise invalid(
                "Checkout does not support multiple prices with different billing intervals.", param
            )
        return lines

    def create_session(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(SESSION_PARAMS, ("mode",))
        mode = params.str("mode", choices=("payment", "subscription", "setup"))
        if mode == "setup":
            raise invalid("`mode=setup` is not supported by the local fake.", "mode")
        if params.str("ui_mode", "hosted_page") not in ("hosted_page", "hosted"):  # `hosted` before 2026
            raise invalid("Only `ui_mode=hosted_page` is supported by the local fake.", "ui_mode")
        if params.sub("automatic_tax", ("enabled", "liability")).bool("enabled") or False:
            raise invalid("automatic_tax is not supported by the local fake.", "automatic_tax[enabled]")
        for flag in ("phone_number_collection", "tax_id_collection"):
            if params.sub(flag, ("enabled", "required")).bool("enabled"):
                raise invalid(f"{flag} is not supported by the local fake.", f"{flag}[enabled]")
        lines = self._line_items(params, mode)
        fields: dict[str, Any] = {"mode": mode}
        if params.has("customer") and params.has("customer_email"):
            raise invalid(
                "You may only specify one of these parameters: customer, customer_email.", "customer"
            )
        if params.has("customer"):
            customer = self._customer(params.str("customer"), "customer")
            fields["customer"] = customer["id"]
            fields["customer_email"] = None
        if params.has("customer_email"):
            fields["customer_email"] = self._email(params, "customer_email")
        if params.has("customer_creation"):
            if mode != "payment":
                raise invalid("`customer_creation` can only be used in `payment` mode.", "customer_creation")
            if params.has("customer"):
                raise invalid(
                    "You may only specify one of these parameters: customer, customer_creation.",
                    "customer_creation",
                )
            fields["customer_creation"] = params.str("customer_creation", choices=("always", "if_required"))
        elif mode == "payment" and not params.has("customer"):
            fields["customer_creation"] = "if_required"
        if params.has("client_reference_id"):
            reference = params.str("client_reference_id", max_length=200)
            if reference and not CLIENT_REFERENCE.match(reference):
                raise invalid(
                    "client_reference_id may contain only letters, digits, '-' and '_'.",
                    "client_reference_id",
                )
            fields["client_reference_id"] = reference
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params)
        for key in ("success_url", "cancel_url"):
            if params.has(key):
                url = params.str(key, max_length=5000)
                if url and not url.startswith(("http://", "https://")):
                    raise invalid(f"Not a valid URL: {key}", key, "url_invalid")
                fields[key] = url
        fields |= page_options(params)
        if params.has("locale"):
            fields["locale"] = params.str("locale")
        if params.has("expires_at"):
            now = self.engine.now()
            expires_at = params.int("expires_at")
            if not now + 1800 <= expires_at <= now + 86400:
                raise invalid(
                    "The `expires_at` timestamp must be between 30 minutes and 24 hours from now.",
                    "expires_at",
                )
            fields["expires_at"] = expires_at
        if only_in(params, "subscription_data", mode, "subscription"):
            fields["_subscription_data"] = self._subscription_data(params)
        if only_in(params, "payment_intent_data", mode, "payment"):
            data = params.sub("payment_intent_data", PAYMENT_INTENT_DATA)
            fields["_payment_intent_data"] = _described(data, 1000)
        if only_in(params, "invoice_creation", mode, "payment"):
            fields["invoice_creation"] = invoice_creation(params, link_invoice_creation())
        elif mode == "payment":
            fields["invoice_creation"] = link_invoice_creation()
        session = self.engine.create_session(fields, lines)
        return self._render("checkout.session", session, params)

    def _subscription_data(self, params: Params) -> dict[str, Any]:
        data = params.sub("subscription_data", SUBSCRIPTION_DATA)
        subscription_data = _described(data, 500)
        if data.has("billing_mode"):
            mode_params = data.sub("billing_mode", ("type", "flexible"), ("type",))
            subscription_data["billing_mode"] = mode_params.str("type", choices=("classic", "flexible"))
        if data.has("trial_period_days"):
            subscription_data["trial_period_days"] = data.int("trial_period_days", minimum=1, maximum=730)
        if data.has("trial_end"):
            trial_end = data.int("trial_end")
            if trial_end < self.engine.now() + 2 * 86400:
                raise invalid(
                    "The `trial_end` date has to be at least 2 days in the future.",
                    "subscription_data[trial_end]",
                )
            subscription_data["trial_end"] = trial_end
        return subscription_data

    def expire_session(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(())
        session = self.engine.expire_session(self.engine.get("checkout.session", id))
        return self._render("checkout.session", session, params)
