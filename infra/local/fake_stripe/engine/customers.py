"""Customers: creation, updates (invoice settings merged), deletion (its live subscriptions end)."""

from __future__ import annotations

import secrets
import string
from typing import Any

from infra.local.fake_stripe.engine.base import EngineBase
from infra.local.fake_stripe.util import new_id


class CustomersEngine(EngineBase):
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
