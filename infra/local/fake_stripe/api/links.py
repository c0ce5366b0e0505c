"""/v1/payment_links and /v1/billing_portal (the pages that use them are pages.py)."""

from __future__ import annotations

import copy
from typing import Any

from infra.local.fake_stripe.api.base import ApiBase, Listing, Params, RawParams, flag
from infra.local.fake_stripe.api.checkout import invoice_creation, new_metadata, only_in, page_options
from infra.local.fake_stripe.engine.links import default_portal_features, link_invoice_creation
from infra.local.fake_stripe.params import LIST_PARAMS
from infra.local.fake_stripe.util import invalid, missing

LINK_PARAMS = (
    "after_completion",
    "allow_promotion_codes",
    "metadata",
    "payment_intent_data",
    "subscription_data",
    "customer_creation",
    "invoice_creation",
    "billing_address_collection",
    "payment_method_types",
    "submit_type",
    "restrictions",
    "inactive_message",
)
ROUTES = [
    ("/v1/payment_links", "POST", "create_payment_link"),
    ("/v1/payment_links/<id>", "POST", "update_payment_link"),
    ("/v1/payment_links/<id>/line_items", "GET", "payment_link_line_items"),
    ("/v1/billing_portal/sessions", "POST", "create_portal_session"),
    ("/v1/billing_portal/configurations", "POST", "create_portal_configuration"),
    ("/v1/billing_portal/configurations/<id>", "POST", "update_portal_configuration"),
]
RETRIEVE = {"/v1/payment_links/<id>": "payment_link"}
LISTINGS = {
    "payment_links": Listing("payment_link", "/v1/payment_links", {"active": flag}),
    "portal_configurations": Listing(
        "billing_portal.configuration",
        "/v1/billing_portal/configurations",
        {"active": flag, "is_default": flag},
    ),
}


class LinksApi(ApiBase):
    # --- payment links -------------------------------------------------------------------------

    def _after_completion(self, params: Params) -> dict[str, Any]:
        after = params.sub("after_completion", ("type", "redirect", "hosted_confirmation"), ("type",))
        kind = after.str("type", choices=("redirect", "hosted_confirmation"))
        result: dict[str, Any] = {"type": kind}
        if kind == "redirect":
            redirect = after.sub("redirect", ("url",), ("url",))
            url = redirect.str("url")
            if not url.startswith(("http://", "https://")):
                raise invalid("Not a valid URL", "after_completion[redirect][url]", "url_invalid")
            result["redirect"] = {"url": url}
        else:
            confirmation = after.sub("hosted_confirmation", ("custom_message",))
            result["hosted_confirmation"] = {"custom_message": confirmation.str("custom_message")}
        return result

    def create_payment_link(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LINK_PARAMS, "line_items"), ("line_items",))
        recurring = any(
            self.engine.price(line.get("price"), f"line_items[{i}][price]")["recurring"]
            for i, line in enumerate(params.list("line_items"))
            if isinstance(line, dict)
        )
        mode = "subscription" if recurring else "payment"
        lines = self._line_items(params, mode)
        link = self.engine.create_payment_link(lines, mode, self._link_fields(params, mode, None))
        return self._render("payment_link", link, params)

    def _link_fields(self, params: Params, mode: str, link: dict[str, Any] | None) -> dict[str, Any]:
        """The top-level fields `params` set on a new link (None) or on `link`."""
        fields: dict[str, Any] = {}
        if params.has("after_completion"):
            fields["after_completion"] = self._after_completion(params)
        fields |= page_options(params)
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params, link["metadata"] if link else {})
        if params.has("inactive_message"):
            fields["inactive_message"] = params.str("inactive_message", max_length=500)
        if params.has("restrictions"):
            raise invalid("restrictions are not supported by the local fake.", "restrictions")
        if params.has("customer_creation"):
            if mode != "payment":
                raise invalid("`customer_creation` can only be used in `payment` mode.", "customer_creation")
            fields["customer_creation"] = params.str("customer_creation", choices=("always", "if_required"))
        if only_in(params, "payment_intent_data", mode, "payment"):
            data = params.sub("payment_intent_data", ("metadata", "description"))
            fields["payment_intent_data"] = {
                "capture_method": None,
                "description": data.str("description"),
                "metadata": new_metadata(data),
                "setup_future_usage": None,
                "statement_descriptor": None,
                "statement_descriptor_suffix": None,
                "transfer_group": None,
            }
        if only_in(params, "subscription_data", mode, "subscription"):
            data = params.sub("subscription_data", ("metadata", "description", "trial_period_days"))
            fields["subscription_data"] = {
                "description": data.str("description"),
                "invoice_settings": {"issuer": {"type": "self"}},
                "metadata": new_metadata(data),
                "trial_period_days": data.int("trial_period_days", minimum=1, maximum=730),
                "trial_settings": None,
            }
        if only_in(params, "invoice_creation", mode, "payment"):
            current = link["invoice_creation"] if link else link_invoice_creation()
            fields["invoice_creation"] = invoice_creation(params, current)
        return fields

    def update_payment_link(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow((*LINK_PARAMS, "active", "line_items"))
        link = self.engine.get("payment_link", id)
        fields = {"active": params.bool("active")} if params.has("active") else {}
        quantities: dict[str, int] = {}
        if params.has("line_items"):
            by_id = {line["id"]: line for line in link["_line_items"]}
            for index, raw in enumerate(params.list("line_items")):
                item = Params(
                    raw if isinstance(raw, dict) else {},
                    ("id", "quantity", "adjustable_quantity"),
                    ("id",),
                    f"line_items[{index}]",
                )
                line = by_id.get(item.str("id"))
                if line is None:
                    raise missing("line item", item.str("id"), f"line_items[{index}][id]")
                if item.has("quantity"):
                    quantities[line["id"]] = item.int("quantity", minimum=1)
        fields |= self._link_fields(params, link["_mode"], link)
        link = self.engine.update_payment_link(link, fields, quantities)
        return self._render("payment_link", link, params)

    def payment_link_line_items(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(LIST_PARAMS)
        link = self.engine.get("payment_link", id)
        items = self.engine.link_line_items(link)["data"]
        return self._list(
            "payment_link",
            params,
            f"/v1/payment_links/{id}/line_items",
            objects=items,
            render=lambda item: item,
        )

    # --- billing portal ---------------------------------------------------------------------------

    def create_portal_session(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            ("customer", "return_url", "configuration", "locale", "flow_data", "on_behalf_of"), ("customer",)
        )
        if params.has("flow_data"):
            raise invalid("flow_data (deep links) is not supported by the local fake.", "flow_data")
        if params.has("on_behalf_of"):
            raise invalid("on_behalf_of is not supported by the local fake.", "on_behalf_of")
        customer = self._customer(params.str("customer"), "customer")
        config_id = params.str("configuration")
        config = (
            self.engine.get("billing_portal.configuration", config_id, "configuration")
            if config_id
            else self.engine.default_portal_configuration()
        )
        return_url = params.str("return_url") or config["default_return_url"]
        if return_url and not return_url.startswith(("http://", "https://")):
            raise invalid("Not a valid URL", "return_url", "url_invalid")
        session = self.engine.create_portal_session(customer, config, return_url, params.str("locale"))
        return self._render("billing_portal.session", session, params)

    def _portal_features(self, params: Params, features: dict[str, Any]) -> dict[str, Any]:
        given = params.sub(
            "features",
            (
                "subscription_cancel",
                "subscription_update",
                "invoice_history",
                "customer_update",
                "payment_method_update",
            ),
        )
        if given.has("subscription_cancel"):
            cancel = given.sub(
                "subscription_cancel", ("enabled", "mode", "proration_behavior", "cancellation_reason")
            )
            features["subscription_cancel"].update(
                {
                    key: value
                    for key, value in {
                        "enabled": cancel.bool("enabled"),
                        "mode": cancel.str("mode", choices=("at_period_end", "immediately")),
                        "proration_behavior": cancel.str(
                            "proration_behavior", choices=("none", "create_prorations", "always_invoice")
                        ),
                    }.items()
                    if value is not None
                }
            )
        if given.has("subscription_update"):
            update = given.sub(
                "subscription_update",
                (
                    "enabled",
                    "default_allowed_updates",
                    "products",
                    "proration_behavior",
                    "schedule_at_period_end",
                ),
            )
            if update.has("enabled"):
                features["subscription_update"]["enabled"] = update.bool("enabled")
            if update.has("default_allowed_updates"):
                features["subscription_update"]["default_allowed_updates"] = update.list(
                    "default_allowed_updates"
                )
            if update.has("proration_behavior"):
                features["subscription_update"]["proration_behavior"] = update.str(
                    "proration_behavior", choices=("none", "create_prorations", "always_invoice")
                )
            if update.has("products"):
                products = []
                for index, raw in enumerate(update.list("products")):
                    entry = Params(
                        raw if isinstance(raw, dict) else {},
                        ("product", "prices", "adjustable_quantity"),
                        ("product", "prices"),
                        f"features[subscription_update][products][{index}]",
                    )
                    product = self.engine.get("product", entry.str("product"), entry.name("product"))
                    prices = [self.engine.price(p, entry.name("prices"))["id"] for p in entry.list("prices")]
                    products.append({"prices": prices, "product": product["id"]})
                features["subscription_update"]["products"] = products
        if given.has("invoice_history"):
            history = given.sub("invoice_history", ("enabled",))
            features["invoice_history"]["enabled"] = history.bool("enabled", True)
        return features

    def _portal_fields(self, params: Params, config: dict[str, Any] | None) -> dict[str, Any]:
        """The top-level fields `params` set on a new configuration (None) or on `config`."""
        fields: dict[str, Any] = {}
        if config is None or params.has("features"):
            current = copy.deepcopy(config["features"]) if config else default_portal_features()
            fields["features"] = self._portal_features(params, current)
        if params.has("default_return_url"):
            url = params.str("default_return_url")
            if url and not url.startswith(("http://", "https://")):
                raise invalid("Not a valid URL", "default_return_url", "url_invalid")
            fields["default_return_url"] = url
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params, config["metadata"] if config else {})
        if params.has("name"):
            fields["name"] = params.str("name")
        if params.has("active"):
            fields["active"] = params.bool("active")
        if params.has("business_profile"):
            keys = ("headline", "privacy_policy_url", "terms_of_service_url")
            profile = params.sub("business_profile", keys)
            current_profile = config["business_profile"] if config else dict.fromkeys(keys)
            fields["business_profile"] = {
                **current_profile,
                **{k: profile.str(k) for k in keys if profile.has(k)},
            }
        return fields

    def create_portal_configuration(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            ("features", "default_return_url", "metadata", "name", "business_profile"), ("features",)
        )
        config = self.engine.create_portal_configuration(self._portal_fields(params, None))
        return self._render("billing_portal.configuration", config, params)

    def update_portal_configuration(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(
            ("features", "default_return_url", "metadata", "name", "business_profile", "active")
        )
        config = self.engine.get("billing_portal.configuration", id)
        config = self.engine.update_portal_configuration(config, self._portal_fields(params, config))
        return self._render("billing_portal.configuration", config, params)
