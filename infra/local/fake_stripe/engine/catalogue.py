"""Products and prices: creation, lookup keys that move between prices, updates."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.engine.base import EngineBase
from infra.local.fake_stripe.util import StripeError, invalid, new_id


class CatalogueEngine(EngineBase):
    def create_product(
        self, fields: dict[str, Any], default_price: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """A new product, with its default price when `default_price` gives one (Stripe's
        `default_price_data`); `product.created` is sent once the product is whole."""
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
        self.store.put("product", product)
        if default_price is not None:
            price = self.create_price({**default_price, "product": product_id}, False)
            product["default_price"] = price["id"]
        self.emit("product.created", "product", product)
        return product

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

    def update_product(self, product: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        before = self.snapshot("product", product)
        product.update(fields)
        product["updated"] = self.now()
        self.emit_updated("product.updated", "product", product, before)
        return product

    def delete_product(self, product: dict[str, Any]) -> dict[str, Any]:
        if any(p["product"] == product["id"] for p in self.store.all("price")):
            raise invalid("This product cannot be deleted because it has one or more user-created prices.")
        del self.store.tables["product"][product["id"]]
        self.store.kind_of.pop(product["id"], None)
        self.emit("product.deleted", "product", product)
        return {"id": product["id"], "object": "product", "deleted": True}
