"""/v1/customers."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.api.base import ApiBase, Listing, Params, RawParams, created, equals
from infra.local.fake_stripe.store import public
from infra.local.fake_stripe.util import invalid

ROUTES = [
    ("/v1/customers", "POST", "create_customer"),
    ("/v1/customers/<id>", "GET", "retrieve_customer"),
    ("/v1/customers/<id>", "POST", "update_customer"),
    ("/v1/customers/<id>", "DELETE", "delete_customer"),
]
RETRIEVE: dict[str, str] = {}  # a deleted customer is still retrieved: retrieve_customer
LISTINGS = {"customers": Listing("customer", "/v1/customers", {"email": equals(), "created": created})}


class CustomersApi(ApiBase):
    def _customer_fields(self, params: Params, current: dict[str, Any] | None) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if params.has("email"):
            fields["email"] = self._email(params)
        for key in ("name", "description", "phone"):
            if params.has(key):
                fields[key] = params.str(key, max_length=256)
        if params.has("preferred_locales"):
            fields["preferred_locales"] = [str(v) for v in params.list("preferred_locales")]
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params, (current or {}).get("metadata"))
        if params.has("invoice_settings"):
            settings = params.sub("invoice_settings", ("default_payment_method",))
            pm_id = settings.str("default_payment_method")
            if pm_id:
                pm = self.engine.get("payment_method", pm_id, "invoice_settings[default_payment_method]")
                if current is None or pm["customer"] != current["id"]:
                    raise invalid(
                        "The payment method must be attached to this customer.",
                        "invoice_settings[default_payment_method]",
                    )
            fields["invoice_settings"] = {"default_payment_method": pm_id}
        return fields

    def create_customer(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("email", "name", "description", "phone", "metadata", "preferred_locales"))
        customer = self.engine.create_customer(self._customer_fields(params, None))
        return self._render("customer", customer, params)

    def retrieve_customer(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(())
        deleted = self.store.get("deleted_customer", id)
        if deleted:
            return public(deleted)
        return self._render("customer", self._customer(id), params)

    def update_customer(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(
            ("email", "name", "description", "phone", "metadata", "preferred_locales", "invoice_settings")
        )
        customer = self._customer(id)
        customer = self.engine.update_customer(customer, self._customer_fields(params, customer))
        return self._render("customer", customer, params)

    def delete_customer(self, raw: RawParams, id: str) -> dict[str, Any]:
        raw.allow(())
        return self.engine.delete_customer(self._customer(id))
