"""Payment links and the billing portal: the objects the API makes for them (the pages that
use them are pages.py)."""

from __future__ import annotations

import copy
from typing import Any

from infra.local.fake_stripe.engine.base import EngineBase, no_custom_text, url_token
from infra.local.fake_stripe.util import new_id


def link_invoice_creation() -> dict[str, Any]:
    return {
        "enabled": False,
        "invoice_data": {
            "account_tax_ids": None,
            "custom_fields": None,
            "description": None,
            "footer": None,
            "issuer": None,
            "metadata": {},
            "rendering_options": None,
        },
    }


def default_portal_features() -> dict[str, Any]:
    """What a portal configuration offers when its creation does not say otherwise."""
    return {
        "customer_update": {"allowed_updates": [], "enabled": False},
        "invoice_history": {"enabled": True},
        "payment_method_update": {"enabled": False},
        "subscription_cancel": {
            "cancellation_reason": {"enabled": False, "options": []},
            "enabled": True,
            "mode": "at_period_end",
            "proration_behavior": "none",
        },
        "subscription_pause": {"duration": {"interval_options": [], "type": "indefinite"}, "enabled": False},
        "subscription_update": {
            "default_allowed_updates": ["price"],
            "enabled": True,
            "products": [],
            "proration_behavior": "create_prorations",
            "schedule_at_period_end": {"conditions": []},
            "trial_update_behavior": "end_trial",
        },
    }


class LinksEngine(EngineBase):
    # --- payment links -------------------------------------------------------------------------

    def create_payment_link(
        self, lines: list[dict[str, Any]], mode: str, fields: dict[str, Any]
    ) -> dict[str, Any]:
        """`lines`: validated [{price, quantity}]; `fields`: validated top-level fields."""
        link: dict[str, Any] = {
            "id": new_id("plink_"),
            "object": "payment_link",
            "active": True,
            "after_completion": {
                "hosted_confirmation": {"custom_message": None},
                "type": "hosted_confirmation",
            },
            "allow_promotion_codes": False,
            "application": None,
            "application_fee_amount": None,
            "application_fee_percent": None,
            "automatic_tax": {"enabled": False, "liability": None},
            "billing_address_collection": "auto",
            "consent_collection": None,
            "currency": self.price(lines[0]["price"])["currency"],
            "custom_fields": [],
            "custom_text": no_custom_text(),
            "customer_creation": "if_required",
            "inactive_message": None,
            "invoice_creation": link_invoice_creation(),
            "livemode": False,
            "metadata": {},
            "on_behalf_of": None,
            "payment_intent_data": None,
            "payment_method_collection": "always",
            "payment_method_types": None,
            "phone_number_collection": {"enabled": False},
            "restrictions": None,
            "shipping_address_collection": None,
            "shipping_options": [],
            "submit_type": "auto",
            "subscription_data": None,
            "tax_id_collection": {"enabled": False, "required": "never"},
            "transfer_data": None,
            "url": None,
            "_token": url_token(),
            "_line_items": [{"id": new_id("li_"), **line} for line in lines],
            "_mode": mode,
        }
        link.update(fields)
        self.store.put("payment_link", link)
        self.emit("payment_link.created", "payment_link", link)
        return link

    def update_payment_link(
        self, link: dict[str, Any], fields: dict[str, Any], quantities: dict[str, int]
    ) -> dict[str, Any]:
        """`quantities`: line item id -> new quantity (ids already checked)."""
        before = self.snapshot("payment_link", link)
        for line in link["_line_items"]:
            if line["id"] in quantities:
                line["quantity"] = quantities[line["id"]]
        link.update(fields)
        self.emit_updated("payment_link.updated", "payment_link", link, before)
        return link

    # --- billing portal ------------------------------------------------------------------------

    def create_portal_configuration(self, fields: dict[str, Any], is_default: bool = False) -> dict[str, Any]:
        now = self.now()
        config = {
            "id": new_id("bpc_"),
            "object": "billing_portal.configuration",
            "active": True,
            "application": None,
            "business_profile": {"headline": None, "privacy_policy_url": None, "terms_of_service_url": None},
            "created": now,
            "default_return_url": None,
            "features": default_portal_features(),
            "is_default": is_default,
            "livemode": False,
            "login_page": {"enabled": False, "url": None},
            "metadata": {},
            "name": None,
            "updated": now,
        }
        config.update(copy.deepcopy(fields))
        return self.store.put("billing_portal.configuration", config)

    def update_portal_configuration(self, config: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        config.update(copy.deepcopy(fields))
        config["updated"] = self.now()
        return config

    def default_portal_configuration(self) -> dict[str, Any]:
        for config in self.store.all("billing_portal.configuration"):
            if config["is_default"]:
                return config
        return self.create_portal_configuration({}, is_default=True)

    def create_portal_session(
        self, customer: dict[str, Any], config: dict[str, Any], return_url: str | None, locale: str | None
    ) -> dict[str, Any]:
        session = {
            "id": new_id("bps_"),
            "object": "billing_portal.session",
            "configuration": config["id"],
            "created": self.now(),
            "customer": customer["id"],
            "flow": None,
            "livemode": False,
            "locale": locale,
            "on_behalf_of": None,
            "return_url": return_url,
            "url": None,
            "_token": url_token(),
        }
        return self.store.put("billing_portal.session", session)
