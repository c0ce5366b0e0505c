"""/v1/products and /v1/prices."""

from __future__ import annotations

import re
from typing import Any

from infra.local.fake_stripe.api.base import (
    ApiBase,
    Listing,
    Params,
    RawParams,
    created,
    equals,
    flag,
    one_of,
)
from infra.local.fake_stripe.params import currency
from infra.local.fake_stripe.util import StripeError, invalid

INTERVALS = ("day", "week", "month", "year")
TAX_BEHAVIORS = ("inclusive", "exclusive", "unspecified")
PRODUCT_FIELDS = (
    "name",
    "active",
    "description",
    "metadata",
    "images",
    "url",
    "statement_descriptor",
    "unit_label",
    "tax_code",
    "shippable",
    "marketing_features",
)


def _currency(params: Params, name: str) -> Any:
    code = params.str(name)
    return None if code is None else (lambda o: o["currency"] == code.lower())


def _interval(params: Params, name: str) -> Any:
    interval = params.sub(name, ("interval", "usage_type", "meter")).str("interval", choices=INTERVALS)
    return None if interval is None else (lambda o: (o["recurring"] or {}).get("interval") == interval)


PRICE_PARAMS = (
    "currency",
    "unit_amount",
    "product",
    "product_data",
    "recurring",
    "lookup_key",
    "transfer_lookup_key",
    "metadata",
    "nickname",
    "active",
    "tax_behavior",
    "billing_scheme",
)
ROUTES = [
    ("/v1/products", "POST", "create_product"),
    ("/v1/products/<id>", "POST", "update_product"),
    ("/v1/products/<id>", "DELETE", "delete_product"),
    ("/v1/prices", "POST", "create_price"),
    ("/v1/prices/<id>", "POST", "update_price"),
]
RETRIEVE = {"/v1/products/<id>": "product", "/v1/prices/<id>": "price"}
LISTINGS = {
    "products": Listing(
        "product",
        "/v1/products",
        {"active": flag, "ids": one_of("id"), "created": created},
        accepted=("shippable", "url"),
    ),
    "prices": Listing(
        "price",
        "/v1/prices",
        {
            "active": flag,
            "currency": _currency,
            "product": equals(),
            "type": equals(choices=("one_time", "recurring")),
            "lookup_keys": one_of("lookup_key", most=10),
            "recurring": _interval,
            "created": created,
        },
    ),
}


class CatalogueApi(ApiBase):
    def _product_fields(self, params: Params, current: dict[str, Any] | None) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if params.has("name"):
            name = params.str("name", max_length=250)
            if not name:
                raise invalid(
                    "You passed an empty string for 'name'. We assume empty values are an attempt to "
                    "unset a parameter; however 'name' cannot be unset.",
                    "name",
                    "parameter_invalid_empty",
                )
            fields["name"] = name
        for key in ("description", "url", "statement_descriptor", "unit_label", "tax_code"):
            if params.has(key):
                fields[key] = params.str(key)
        if params.has("active"):
            fields["active"] = params.bool("active")
        if params.has("shippable"):
            fields["shippable"] = params.bool("shippable")
        if params.has("images"):
            fields["images"] = [str(v) for v in params.list("images")]
        if params.has("marketing_features"):
            fields["marketing_features"] = [
                {"name": Params(f, ("name",), ("name",), f"marketing_features[{i}]").str("name")}
                for i, f in enumerate(params.list("marketing_features"))
            ]
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params, (current or {}).get("metadata"))
        return fields

    def create_product(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*PRODUCT_FIELDS, "id", "default_price_data", "type"), ("name",))
        fields = self._product_fields(params, None)
        if params.has("id"):
            product_id = params.str("id", max_length=255)
            if not product_id or not re.match(r"^[A-Za-z0-9_-]+$", product_id):
                raise invalid("Invalid product id: use letters, digits, '_' and '-'.", "id")
            fields["id"] = product_id
        if params.has("type") and params.str("type") != "service":
            raise invalid("Only `type=service` products are supported.", "type")
        default_price = None
        if params.has("default_price_data"):
            data = params.sub(
                "default_price_data",
                ("currency", "unit_amount", "recurring", "metadata", "tax_behavior"),
                ("currency", "unit_amount"),
            )
            default_price = self._price_body(data)
        product = self.engine.create_product(fields, default_price)
        return self._render("product", product, params)

    def update_product(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow((*PRODUCT_FIELDS, "default_price"))
        product = self.engine.get("product", id)
        fields = self._product_fields(params, product)
        if params.has("default_price"):
            price_id = params.str("default_price")
            if price_id:
                price = self.engine.price(price_id, "default_price")
                if price["product"] != product["id"]:
                    raise invalid("The default price must belong to this product.", "default_price")
            fields["default_price"] = price_id
        return self._render("product", self.engine.update_product(product, fields), params)

    def delete_product(self, raw: RawParams, id: str) -> dict[str, Any]:
        raw.allow(())
        return self.engine.delete_product(self.engine.get("product", id))

    def _price_body(self, params: Params) -> dict[str, Any]:
        fields: dict[str, Any] = {"currency": currency(params.raw("currency"), params.name("currency"))}
        fields["unit_amount"] = params.int("unit_amount", minimum=0, maximum=99_999_999)
        if fields["unit_amount"] is None:
            raise StripeError(
                400,
                f"Missing required param: {params.name('unit_amount')}.",
                code="parameter_missing",
                param=params.name("unit_amount"),
            )
        if params.has("recurring"):
            recurring = params.sub("recurring", ("interval", "interval_count", "usage_type"), ("interval",))
            interval = recurring.str("interval", choices=INTERVALS)
            count = recurring.int("interval_count", 1, minimum=1)
            limits = {"day": 1095, "week": 156, "month": 36, "year": 3}
            if count > limits[interval]:
                raise invalid(
                    "Invalid recurring interval: the maximum is three years.", "recurring[interval_count]"
                )
            if recurring.str("usage_type", "licensed") != "licensed":
                raise invalid("Metered prices are not supported by the local fake.", "recurring[usage_type]")
            fields["recurring"] = {
                "interval": interval,
                "interval_count": count,
                "meter": None,
                "trial_period_days": None,
                "usage_type": "licensed",
            }
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params)
        if params.has("tax_behavior"):
            fields["tax_behavior"] = params.str("tax_behavior", choices=TAX_BEHAVIORS)
        return fields

    def create_price(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(PRICE_PARAMS, ("currency",))
        fields = self._price_body(params)
        if params.has("billing_scheme") and params.str("billing_scheme") != "per_unit":
            raise invalid("Only `billing_scheme=per_unit` is supported by the local fake.", "billing_scheme")
        if params.has("product") == params.has("product_data"):
            raise invalid(
                "You must specify either `product` or `product_data` when creating a price.", "product"
            )
        if params.has("product"):
            fields["product"] = self.engine.get("product", params.str("product"), "product")["id"]
        else:
            data = params.sub(
                "product_data",
                ("name", "active", "metadata", "statement_descriptor", "unit_label", "tax_code", "id"),
                ("name",),
            )
            product = self.engine.create_product(
                self._product_fields(data, None) | ({"id": data.str("id")} if data.has("id") else {})
            )
            fields["product"] = product["id"]
        if params.has("lookup_key"):
            fields["lookup_key"] = params.str("lookup_key", max_length=200)
        if params.has("nickname"):
            fields["nickname"] = params.str("nickname")
        if params.has("active"):
            fields["active"] = params.bool("active")
        price = self.engine.create_price(fields, bool(params.bool("transfer_lookup_key", False)))
        return self._render("price", price, params)

    def update_price(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(
            ("active", "lookup_key", "transfer_lookup_key", "metadata", "nickname", "tax_behavior")
        )
        price = self.engine.price(id, "id")
        fields: dict[str, Any] = {}
        if params.has("active"):
            fields["active"] = params.bool("active")
        if params.has("lookup_key"):
            fields["lookup_key"] = params.str("lookup_key", max_length=200)
        if params.has("nickname"):
            fields["nickname"] = params.str("nickname")
        if params.has("metadata"):
            fields["metadata"] = self._metadata(params, price["metadata"])
        if params.has("tax_behavior"):
            fields["tax_behavior"] = params.str("tax_behavior", choices=TAX_BEHAVIORS)
        price = self.engine.update_price(price, fields, bool(params.bool("transfer_lookup_key", False)))
        return self._render("price", price, params)
