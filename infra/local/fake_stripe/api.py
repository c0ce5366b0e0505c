"""The /v1 REST endpoints the app calls, as stripe-python 16 sends them (form-encoded bodies,
indexed arrays, `expand[n]`, an Idempotency-Key on every POST) and as Stripe answers them
(JSON objects, list objects, error objects with the right HTTP statuses)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from collections.abc import Callable
from typing import Any

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from infra.local.fake_stripe.engine import API_VERSION, Engine, parse_search, search_matches
from infra.local.fake_stripe.params import LIST_PARAMS, Params, currency, matches_timestamp, timestamp_filter
from infra.local.fake_stripe.store import Store, public
from infra.local.fake_stripe.util import (
    StripeError,
    decode_query,
    invalid,
    metadata_update,
    missing,
    new_id,
)

IDEMPOTENCY_TTL = 24 * 3600
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
CLIENT_REFERENCE = re.compile(r"^[A-Za-z0-9_-]{1,200}$")
INTERVALS = ("day", "week", "month", "year")
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
Handler = Callable[..., Any]


def _rules() -> list[Rule]:
    routes = [
        ("/v1/products", "POST", "create_product"),
        ("/v1/products", "GET", "list_products"),
        ("/v1/products/search", "GET", "search_products"),
        ("/v1/products/<id>", "GET", "retrieve_product"),
        ("/v1/products/<id>", "POST", "update_product"),
        ("/v1/products/<id>", "DELETE", "delete_product"),
        ("/v1/prices", "POST", "create_price"),
        ("/v1/prices", "GET", "list_prices"),
        ("/v1/prices/search", "GET", "search_prices"),
        ("/v1/prices/<id>", "GET", "retrieve_price"),
        ("/v1/prices/<id>", "POST", "update_price"),
        ("/v1/customers", "POST", "create_customer"),
        ("/v1/customers", "GET", "list_customers"),
        ("/v1/customers/search", "GET", "search_customers"),
        ("/v1/customers/<id>", "GET", "retrieve_customer"),
        ("/v1/customers/<id>", "POST", "update_customer"),
        ("/v1/customers/<id>", "DELETE", "delete_customer"),
        ("/v1/customers/<id>/payment_methods", "GET", "list_customer_payment_methods"),
        ("/v1/payment_methods/<id>", "GET", "retrieve_payment_method"),
        ("/v1/checkout/sessions", "POST", "create_session"),
        ("/v1/checkout/sessions", "GET", "list_sessions"),
        ("/v1/checkout/sessions/<id>", "GET", "retrieve_session"),
        ("/v1/checkout/sessions/<id>", "POST", "update_session"),
        ("/v1/checkout/sessions/<id>/line_items", "GET", "session_line_items"),
        ("/v1/checkout/sessions/<id>/expire", "POST", "expire_session"),
        ("/v1/subscriptions", "GET", "list_subscriptions"),
        ("/v1/subscriptions/search", "GET", "search_subscriptions"),
        ("/v1/subscriptions/<id>", "GET", "retrieve_subscription"),
        ("/v1/subscriptions/<id>", "POST", "update_subscription"),
        ("/v1/subscriptions/<id>", "DELETE", "cancel_subscription"),
        ("/v1/subscription_items", "GET", "list_subscription_items"),
        ("/v1/subscription_items/<id>", "GET", "retrieve_subscription_item"),
        ("/v1/invoices", "GET", "list_invoices"),
        ("/v1/invoices/search", "GET", "search_invoices"),
        ("/v1/invoices/<id>", "GET", "retrieve_invoice"),
        ("/v1/invoices/<id>/lines", "GET", "invoice_lines"),
        ("/v1/invoices/<id>/pay", "POST", "pay_invoice"),
        ("/v1/invoice_payments", "GET", "list_invoice_payments"),
        ("/v1/invoice_payments/<id>", "GET", "retrieve_invoice_payment"),
        ("/v1/payment_intents", "GET", "list_payment_intents"),
        ("/v1/payment_intents/<id>", "GET", "retrieve_payment_intent"),
        ("/v1/charges", "GET", "list_charges"),
        ("/v1/charges/<id>", "GET", "retrieve_charge"),
        ("/v1/refunds", "POST", "create_refund"),
        ("/v1/refunds", "GET", "list_refunds"),
        ("/v1/refunds/<id>", "GET", "retrieve_refund"),
        ("/v1/payment_links", "POST", "create_payment_link"),
        ("/v1/payment_links", "GET", "list_payment_links"),
        ("/v1/payment_links/<id>", "GET", "retrieve_payment_link"),
        ("/v1/payment_links/<id>", "POST", "update_payment_link"),
        ("/v1/payment_links/<id>/line_items", "GET", "payment_link_line_items"),
        ("/v1/billing_portal/sessions", "POST", "create_portal_session"),
        ("/v1/billing_portal/configurations", "POST", "create_portal_configuration"),
        ("/v1/billing_portal/configurations", "GET", "list_portal_configurations"),
        ("/v1/billing_portal/configurations/<id>", "GET", "retrieve_portal_configuration"),
        ("/v1/billing_portal/configurations/<id>", "POST", "update_portal_configuration"),
        ("/v1/events", "GET", "list_events"),
        ("/v1/events/<id>", "GET", "retrieve_event"),
        ("/v1/webhook_endpoints", "POST", "create_webhook_endpoint"),
        ("/v1/webhook_endpoints", "GET", "list_webhook_endpoints"),
        ("/v1/webhook_endpoints/<id>", "GET", "retrieve_webhook_endpoint"),
        ("/v1/webhook_endpoints/<id>", "POST", "update_webhook_endpoint"),
        ("/v1/webhook_endpoints/<id>", "DELETE", "delete_webhook_endpoint"),
    ]
    return [Rule(path, methods=[method], endpoint=endpoint) for path, method, endpoint in routes]


class Api:
    def __init__(
        self,
        engine: Engine,
        store: Store,
        webhooks: Any,
        api_key: str | None,
        after_change: Callable[[], None],
    ) -> None:
        self.engine = engine
        self.webhooks = webhooks
        self.store = store
        self.api_key = api_key
        self.after_change = after_change
        self.routes = Map(_rules(), strict_slashes=False)

    # --- plumbing ----------------------------------------------------------------------------

    def handle(self, request: Request) -> Response:
        request_id = new_id("req_", 14)
        try:
            key = self._authenticate(request)
            adapter = self.routes.bind_to_environ(request.environ)
            try:
                endpoint, args = adapter.match(method=request.method)
            except (NotFound, MethodNotAllowed):
                raise StripeError(
                    404,
                    f"Unrecognized request URL ({request.method}: {request.path}). "
                    "The local Stripe fake implements only the endpoints Tandem uses (docs/decisions.md).",
                ) from None
            params = self._params(request)
        except StripeError as error:
            return self._json(error.status, error.body(), request_id)
        idempotency_key = (
            request.headers.get("Idempotency-Key") if request.method in ("POST", "DELETE") else None
        )
        with self.store.lock:
            if idempotency_key:
                cached = self._idempotent(key, idempotency_key, request, params)
                if cached is not None:
                    return self._json(cached["status"], cached["body"], request_id, replayed=True)
            try:
                with self.engine.request(request_id, idempotency_key):
                    body = getattr(self, endpoint)(RawParams(params), **args)
                status = 200
            except StripeError as error:
                status, body = error.status, error.body()
            if idempotency_key and (status == 200 or status == 402):
                self._remember(key, idempotency_key, request, params, status, body)
            if request.method != "GET":
                self.store.save()
        if request.method != "GET":
            self.after_change()
        return self._json(status, body, request_id)

    def _authenticate(self, request: Request) -> str:
        header = request.headers.get("Authorization", "")
        key = ""
        if header.startswith("Bearer "):
            key = header[7:].strip()
        elif header.startswith("Basic "):
            try:
                key = base64.b64decode(header[6:]).decode().split(":", 1)[0]
            except (ValueError, UnicodeDecodeError):
                key = ""
        if not key:
            raise StripeError(
                401,
                "You did not provide an API key. You need to provide your API key in the Authorization "
                "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
            )
        if not key.startswith(("sk_test_", "rk_test_")) or (self.api_key and key != self.api_key):
            shown = key[:8] + "*" * 4 + key[-4:] if len(key) > 12 else "****"
            raise StripeError(401, f"Invalid API Key provided: {shown}")
        return key

    @staticmethod
    def _params(request: Request) -> dict[str, Any]:
        if request.method == "POST":
            content_type = request.mimetype
            if content_type and content_type != "application/x-www-form-urlencoded":
                raise StripeError(
                    400,
                    f"Invalid request: the body must be form-encoded (got {content_type}).",
                    code="parameter_invalid",
                )
            body = request.get_data(as_text=True)
            params = decode_query(body)
            query = decode_query(request.query_string.decode())
            return {**query, **params}
        return decode_query(request.query_string.decode())

    @staticmethod
    def _fingerprint(request: Request, params: dict[str, Any]) -> str:
        text = json.dumps([request.method, request.path, params], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    @staticmethod
    def _idem_slot(api_key: str, idempotency_key: str) -> str:
        return hashlib.sha256(f"{api_key}\n{idempotency_key}".encode()).hexdigest()

    def _remember(
        self, api_key: str, key: str, request: Request, params: dict[str, Any], status: int, body: Any
    ) -> None:
        """Keep the answer for 24 hours, as Stripe does (older keys are forgotten)."""
        now = time.time()
        cache = self.store.idempotency
        for slot in [slot for slot, entry in cache.items() if entry["at"] < now - IDEMPOTENCY_TTL]:
            del cache[slot]
        cache[self._idem_slot(api_key, key)] = {
            "fingerprint": self._fingerprint(request, params),
            "status": status,
            "body": body,
            "at": now,
        }

    def _idempotent(
        self, api_key: str, key: str, request: Request, params: dict[str, Any]
    ) -> dict[str, Any] | None:
        if len(key) > 255:
            raise_body = StripeError(
                400, "Idempotency keys can be at most 255 characters long.", type_="idempotency_error"
            )
            return {"status": 400, "body": raise_body.body()}
        cached = self.store.idempotency.get(self._idem_slot(api_key, key))
        if cached is None:
            return None
        if cached["fingerprint"] != self._fingerprint(request, params):
            error = StripeError(
                400,
                "Keys for idempotent requests can only be used with the same parameters they were first used "
                f"with. Try using a key other than '{key}' if you meant to execute a different request.",
                type_="idempotency_error",
            )
            return {"status": 400, "body": error.body()}
        return cached

    @staticmethod
    def _json(status: int, body: Any, request_id: str, replayed: bool = False) -> Response:
        headers = {
            "Request-Id": request_id,
            "Stripe-Version": API_VERSION,
            "Cache-Control": "no-cache, no-store",
        }
        if replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(
            json.dumps(body, indent=2), status=status, headers=headers, mimetype="application/json"
        )

    # --- shared helpers ------------------------------------------------------------------------

    def _render(self, kind: str, obj: dict[str, Any], params: Params) -> dict[str, Any]:
        return self.engine.render(kind, obj, params.expand())

    def _list(
        self,
        kind: str,
        params: Params,
        url: str,
        keep: Callable[[dict[str, Any]], bool] = lambda o: True,
        objects: list[dict[str, Any]] | None = None,
        render: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        limit = params.int("limit", 10, minimum=1, maximum=100)
        items = [o for o in (objects if objects is not None else self.store.all(kind)) if keep(o)]
        ids = [o["id"] for o in items]
        after, before = params.str("starting_after"), params.str("ending_before")
        if after and before:
            raise invalid("You may only specify one of these parameters: ending_before, starting_after.")
        if after:
            if after not in ids:
                raise missing(kind, after, "starting_after")
            start = ids.index(after) + 1
            page, has_more = items[start : start + limit], start + limit < len(items)
        elif before:
            if before not in ids:
                raise missing(kind, before, "ending_before")
            end = ids.index(before)
            page, has_more = items[max(0, end - limit) : end], end - limit > 0
        else:
            page, has_more = items[:limit], limit < len(items)
        data = [render(o) if render else self.engine._render_base(kind, o) for o in page]
        listed = self.engine.list_object(data, url, has_more)
        for path in params.expand():
            if not path.startswith("data."):
                raise invalid(
                    f"This property cannot be expanded ({path}) on a list; use data.{path}.", "expand"
                )
            self.engine._expand(None, None, listed, path.split("."), path)
        return listed

    def _search(self, kind: str, params: Params, url: str, fields: tuple[str, ...]) -> dict[str, Any]:
        query = params.str("query") or ""
        join, clauses = parse_search(query)
        for _, field, _, _ in clauses:
            if not field.startswith("metadata[") and field not in fields:
                raise invalid(f"Field '{field}' is an unsupported search field for {kind}.", "query")
        limit = params.int("limit", 10, minimum=1, maximum=100)
        page = params.str("page")
        offset = 0
        if page:
            if not page.startswith("page_") or not page[5:].isdigit():
                raise invalid("Invalid page token.", "page")
            offset = int(page[5:])
        found = [o for o in self.store.all(kind) if search_matches(o, join, clauses)]
        chunk = found[offset : offset + limit]
        has_more = offset + limit < len(found)
        result = {
            "object": "search_result",
            "data": [self.engine._render_base(kind, o) for o in chunk],
            "has_more": has_more,
            "next_page": f"page_{offset + limit}" if has_more else None,
            "url": url,
        }
        for path in params.expand():
            if path == "total_count":
                result["total_count"] = len(found)
                continue
            self.engine._expand(None, None, result, path.split("."), path)
        return result

    def _metadata(self, params: Params, current: dict[str, str] | None = None) -> dict[str, str]:
        return metadata_update(current or {}, params.raw("metadata"))

    def _email(self, params: Params, key: str = "email") -> str | None:
        email = params.str(key, max_length=512)
        if email and not EMAIL.match(email):
            raise invalid(f"Invalid email address: {email}", params.name(key), "email_invalid")
        return email

    # --- products ----------------------------------------------------------------------------------

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
        product = self.engine.create_product(fields)
        if params.has("default_price_data"):
            data = params.sub(
                "default_price_data",
                ("currency", "unit_amount", "recurring", "metadata", "tax_behavior"),
                ("currency", "unit_amount"),
            )
            price = self.engine.create_price({**self._price_body(data), "product": product["id"]}, False)
            product["default_price"] = price["id"]
        self.engine.emit("product.created", "product", product)
        return self._render("product", product, params)

    def retrieve_product(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("product", self.engine.get("product", id), params)

    def update_product(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
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
        before = self.engine.snapshot("product", product)
        product.update(fields)
        product["updated"] = self.engine.now()
        self.engine.emit_updated("product.updated", "product", product, before)
        return self._render("product", product, params)

    def delete_product(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        raw.allow(())
        product = self.engine.get("product", id)
        if any(p["product"] == id for p in self.store.all("price")):
            raise invalid("This product cannot be deleted because it has one or more user-created prices.")
        del self.store.tables["product"][id]
        self.store.kind_of.pop(id, None)
        self.engine.emit("product.deleted", "product", product)
        return {"id": id, "object": "product", "deleted": True}

    def list_products(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "active", "ids", "created", "shippable", "url"))
        active = params.bool("active")
        ids = set(params.list("ids")) if params.has("ids") else None
        created = timestamp_filter(params)
        return self._list(
            "product",
            params,
            "/v1/products",
            lambda p: (
                (active is None or p["active"] == active)
                and (ids is None or p["id"] in ids)
                and matches_timestamp(p["created"], created)
            ),
        )

    def search_products(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("query", "limit", "page"), ("query",))
        return self._search(
            "product",
            params,
            "/v1/products/search",
            ("active", "name", "description", "created", "shippable", "url", "id"),
        )

    # --- prices --------------------------------------------------------------------------------------

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
            fields["tax_behavior"] = params.str(
                "tax_behavior", choices=("inclusive", "exclusive", "unspecified")
            )
        return fields

    def create_price(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            (
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
            ),
            ("currency",),
        )
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
            self.engine.emit("product.created", "product", product)
            fields["product"] = product["id"]
        if params.has("lookup_key"):
            fields["lookup_key"] = params.str("lookup_key", max_length=200)
        if params.has("nickname"):
            fields["nickname"] = params.str("nickname")
        if params.has("active"):
            fields["active"] = params.bool("active")
        price = self.engine.create_price(fields, bool(params.bool("transfer_lookup_key", False)))
        return self._render("price", price, params)

    def retrieve_price(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("price", self.engine.price(id, "id"), params)

    def update_price(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
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
            fields["tax_behavior"] = params.str(
                "tax_behavior", choices=("inclusive", "exclusive", "unspecified")
            )
        price = self.engine.update_price(price, fields, bool(params.bool("transfer_lookup_key", False)))
        return self._render("price", price, params)

    def list_prices(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            (*LIST_PARAMS, "active", "currency", "product", "type", "lookup_keys", "recurring", "created")
        )
        active = params.bool("active")
        product = params.str("product")
        kind = params.str("type", choices=("one_time", "recurring"))
        code = params.str("currency")
        lookup_keys = set(params.list("lookup_keys")) if params.has("lookup_keys") else None
        if lookup_keys is not None and len(lookup_keys) > 10:
            raise invalid("You may pass at most 10 lookup_keys.", "lookup_keys")
        interval = params.sub("recurring", ("interval", "usage_type", "meter")).str(
            "interval", choices=INTERVALS
        )
        created = timestamp_filter(params)
        return self._list(
            "price",
            params,
            "/v1/prices",
            lambda p: (
                (active is None or p["active"] == active)
                and (product is None or p["product"] == product)
                and (kind is None or p["type"] == kind)
                and (code is None or p["currency"] == code.lower())
                and (lookup_keys is None or p["lookup_key"] in lookup_keys)
                and (interval is None or (p["recurring"] or {}).get("interval") == interval)
                and matches_timestamp(p["created"], created)
            ),
        )

    def search_prices(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("query", "limit", "page"), ("query",))
        return self._search(
            "price",
            params,
            "/v1/prices/search",
            ("active", "currency", "lookup_key", "product", "type", "created"),
        )

    # --- customers -------------------------------------------------------------------------------

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

    def _customer(self, customer_id: str, param: str = "id") -> dict[str, Any]:
        return self.engine.get("customer", customer_id, param)

    def retrieve_customer(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        deleted = self.store.get("deleted_customer", id)
        if deleted:
            return public(deleted)
        return self._render("customer", self._customer(id), params)

    def update_customer(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(
            ("email", "name", "description", "phone", "metadata", "preferred_locales", "invoice_settings")
        )
        customer = self._customer(id)
        customer = self.engine.update_customer(customer, self._customer_fields(params, customer))
        return self._render("customer", customer, params)

    def delete_customer(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        raw.allow(())
        return self.engine.delete_customer(self._customer(id))

    def list_customers(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "email", "created"))
        email = params.str("email", max_length=512)
        created = timestamp_filter(params)
        return self._list(
            "customer",
            params,
            "/v1/customers",
            lambda c: (email is None or c["email"] == email) and matches_timestamp(c["created"], created),
        )

    def search_customers(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("query", "limit", "page"), ("query",))
        return self._search("customer", params, "/v1/customers/search", ("email", "name", "phone", "created"))

    def list_customer_payment_methods(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow((*LIST_PARAMS, "type"))
        self._customer(id)
        return self._list(
            "payment_method", params, f"/v1/customers/{id}/payment_methods", lambda pm: pm["customer"] == id
        )

    def retrieve_payment_method(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("payment_method", self.engine.get("payment_method", id), params)

    # --- checkout sessions -----------------------------------------------------------------------

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
        params = raw.allow(
            (
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
            ),
            ("mode",),
        )
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
        if params.has("allow_promotion_codes"):
            fields["allow_promotion_codes"] = params.bool("allow_promotion_codes")
        if params.has("locale"):
            fields["locale"] = params.str("locale")
        if params.has("billing_address_collection"):
            fields["billing_address_collection"] = params.str(
                "billing_address_collection", choices=("auto", "required")
            )
        if params.has("submit_type"):
            fields["submit_type"] = params.str(
                "submit_type", choices=("auto", "book", "donate", "pay", "subscribe")
            )
        if params.has("payment_method_types") and set(params.list("payment_method_types")) - {"card"}:
            raise invalid(
                "The local fake supports only the `card` payment method type.", "payment_method_types"
            )
        if params.has("expires_at"):
            now = self.engine.now()
            expires_at = params.int("expires_at")
            if not now + 1800 <= expires_at <= now + 86400:
                raise invalid(
                    "The `expires_at` timestamp must be between 30 minutes and 24 hours from now.",
                    "expires_at",
                )
            fields["expires_at"] = expires_at
        if params.has("subscription_data"):
            if mode != "subscription":
                raise invalid(
                    "You can only specify `subscription_data` in `subscription` mode.", "subscription_data"
                )
            data = params.sub(
                "subscription_data",
                (
                    "metadata",
                    "description",
                    "trial_period_days",
                    "trial_end",
                    "proration_behavior",
                    "default_tax_rates",
                    "billing_mode",
                ),
            )
            subscription_data: dict[str, Any] = {}
            if data.has("billing_mode"):
                mode_params = data.sub("billing_mode", ("type", "flexible"), ("type",))
                subscription_data["billing_mode"] = mode_params.str("type", choices=("classic", "flexible"))
            if data.has("metadata"):
                subscription_data["metadata"] = metadata_update(
                    {}, data.raw("metadata"), "subscription_data[metadata]"
                )
            if data.has("description"):
                subscription_data["description"] = data.str("description", max_length=500)
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
            fields["_subscription_data"] = subscription_data
        if params.has("payment_intent_data"):
            if mode != "payment":
                raise invalid(
                    "You can only specify `payment_intent_data` in `payment` mode.", "payment_intent_data"
                )
            data = params.sub(
                "payment_intent_data",
                (
                    "metadata",
                    "description",
                    "receipt_email",
                    "setup_future_usage",
                    "statement_descriptor",
                    "statement_descriptor_suffix",
                ),
            )
            intent_data: dict[str, Any] = {}
            if data.has("metadata"):
                intent_data["metadata"] = metadata_update(
                    {}, data.raw("metadata"), "payment_intent_data[metadata]"
                )
            if data.has("description"):
                intent_data["description"] = data.str("description", max_length=1000)
            fields["_payment_intent_data"] = intent_data
        if params.has("invoice_creation"):
            if mode != "payment":
                raise invalid(
                    "You can only specify `invoice_creation` in `payment` mode.", "invoice_creation"
                )
            creation = params.sub("invoice_creation", ("enabled", "invoice_data"), ("enabled",))
            invoice_data = creation.sub("invoice_data", ("metadata", "description", "footer"))
            fields["invoice_creation"] = {
                "enabled": creation.bool("enabled"),
                "invoice_data": {
                    "account_tax_ids": None,
                    "custom_fields": None,
                    "description": invoice_data.str("description"),
                    "footer": invoice_data.str("footer"),
                    "issuer": None,
                    "metadata": metadata_update(
                        {}, invoice_data.raw("metadata") or {}, "invoice_creation[invoice_data][metadata]"
                    ),
                    "rendering_options": None,
                },
            }
        elif mode == "payment":
            fields["invoice_creation"] = {
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
        session = self.engine.create_session(fields, lines)
        return self._render("checkout.session", session, params)

    def retrieve_session(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("checkout.session", self.engine.get("checkout.session", id), params)

    def update_session(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(("metadata",))
        session = self.engine.get("checkout.session", id)
        if params.has("metadata"):
            session["metadata"] = self._metadata(params, session["metadata"])
        return self._render("checkout.session", session, params)

    def session_line_items(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(LIST_PARAMS)
        session = self.engine.get("checkout.session", id)
        items = self.engine.session_line_items(session)["data"]
        return self._list(
            "checkout.session",
            params,
            f"/v1/checkout/sessions/{id}/line_items",
            objects=items,
            render=lambda item: item,
        )

    def expire_session(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        session = self.engine.expire_session(self.engine.get("checkout.session", id))
        return self._render("checkout.session", session, params)

    def list_sessions(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            (
                *LIST_PARAMS,
                "customer",
                "payment_intent",
                "payment_link",
                "subscription",
                "status",
                "created",
                "customer_details",
            )
        )
        filters = {
            key: params.str(key) for key in ("customer", "payment_intent", "payment_link", "subscription")
        }
        status = params.str("status", choices=("open", "complete", "expired"))
        email = (
            params.sub("customer_details", ("email",), ("email",)).str("email")
            if params.has("customer_details")
            else None
        )
        created = timestamp_filter(params)
        return self._list(
            "checkout.session",
            params,
            "/v1/checkout/sessions",
            lambda s: (
                all(value is None or s[key] == value for key, value in filters.items())
                and (status is None or s["status"] == status)
                and (email is None or (s["customer_details"] or {}).get("email") == email)
                and matches_timestamp(s["created"], created)
            ),
        )

    # --- subscriptions -------------------------------------------------------------------------

    def retrieve_subscription(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("subscription", self.engine.get("subscription", id), params)

    def list_subscriptions(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "customer", "price", "status", "created", "collection_method"))
        customer = params.str("customer")
        price = params.str("price")
        status = params.str(
            "status",
            choices=(
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
            ),
        )
        created = timestamp_filter(params)

        def keep(sub: dict[str, Any]) -> bool:
            if customer and sub["customer"] != customer:
                return False
            if price and not any(item["_price"] == price for item in sub["items"]["data"]):
                return False
            if status is None:
                ok = sub["status"] not in ("canceled", "incomplete_expired")
            elif status == "all":
                ok = True
            elif status == "ended":
                ok = sub["status"] in ("canceled", "incomplete_expired")
            else:
                ok = sub["status"] == status
            return ok and matches_timestamp(sub["created"], created)

        return self._list(
            "subscription",
            params,
            "/v1/subscriptions",
            keep,
            render=lambda s: self.engine._render_base("subscription", s),
        )

    def search_subscriptions(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("query", "limit", "page"), ("query",))
        return self._search(
            "subscription", params, "/v1/subscriptions/search", ("status", "created", "customer")
        )

    def update_subscription(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
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

    def cancel_subscription(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
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

    def list_subscription_items(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "subscription"), ("subscription",))
        sub = self.engine.get("subscription", params.str("subscription"), "subscription")
        items = self.engine._render_base("subscription", sub)["items"]["data"]
        return self._list(
            "subscription_item", params, "/v1/subscription_items", objects=items, render=lambda item: item
        )

    def retrieve_subscription_item(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        raw.allow(())
        for sub in self.store.all("subscription"):
            for item in self.engine._render_base("subscription", sub)["items"]["data"]:
                if item["id"] == id:
                    return item
        raise missing("subscription_item", id)

    # --- invoices and payments -------------------------------------------------------------------

    def retrieve_invoice(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("invoice", self.engine.get("invoice", id), params)

    def list_invoices(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            (*LIST_PARAMS, "customer", "subscription", "status", "created", "collection_method")
        )
        customer = params.str("customer")
        subscription = params.str("subscription")
        status = params.str("status", choices=("draft", "open", "paid", "uncollectible", "void"))
        created = timestamp_filter(params)

        def keep(invoice: dict[str, Any]) -> bool:
            sub = ((invoice["parent"] or {}).get("subscription_details") or {}).get("subscription")
            return (
                (customer is None or invoice["customer"] == customer)
                and (subscription is None or sub == subscription)
                and (status is None or invoice["status"] == status)
                and matches_timestamp(invoice["created"], created)
            )

        return self._list("invoice", params, "/v1/invoices", keep)

    def search_invoices(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("query", "limit", "page"), ("query",))
        return self._search(
            "invoice",
            params,
            "/v1/invoices/search",
            ("customer", "status", "total", "created", "number", "currency"),
        )

    def invoice_lines(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(LIST_PARAMS)
        invoice = self.engine.get("invoice", id)
        return self._list(
            "line_item",
            params,
            f"/v1/invoices/{id}/lines",
            objects=invoice["lines"]["data"],
            render=lambda line: public(line),
        )

    def pay_invoice(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(("off_session", "payment_method"))
        if params.has("payment_method"):
            raise invalid(
                "Paying with another payment_method is not supported by the local fake.", "payment_method"
            )
        invoice = self.engine.pay_invoice(self.engine.get("invoice", id))
        return self._render("invoice", invoice, params)

    def list_invoice_payments(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "invoice", "payment", "status", "created"))
        invoice = params.str("invoice")
        payment = params.sub("payment", ("type", "payment_intent", "payment_record"))
        intent = payment.str("payment_intent")
        status = params.str("status", choices=("canceled", "open", "paid"))
        return self._list(
            "invoice_payment",
            params,
            "/v1/invoice_payments",
            lambda p: (
                (invoice is None or p["invoice"] == invoice)
                and (intent is None or p["payment"]["payment_intent"] == intent)
                and (status is None or p["status"] == status)
            ),
        )

    def retrieve_invoice_payment(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("invoice_payment", self.engine.get("invoice_payment", id), params)

    def retrieve_payment_intent(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(("client_secret",))
        return self._render("payment_intent", self.engine.get("payment_intent", id), params)

    def list_payment_intents(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "customer", "created"))
        customer = params.str("customer")
        return self._list(
            "payment_intent",
            params,
            "/v1/payment_intents",
            lambda p: customer is None or p["customer"] == customer,
        )

    def retrieve_charge(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("charge", self.engine.get("charge", id), params)

    def list_charges(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "customer", "payment_intent", "created"))
        customer, intent = params.str("customer"), params.str("payment_intent")
        return self._list(
            "charge",
            params,
            "/v1/charges",
            lambda c: (
                (customer is None or c["customer"] == customer)
                and (intent is None or c["payment_intent"] == intent)
            ),
        )

    # --- refunds -------------------------------------------------------------------------------

    def create_refund(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(("charge", "payment_intent", "amount", "reason", "metadata"))
        if params.has("charge") == params.has("payment_intent"):
            raise invalid(
                "One of the following params should be provided for this request: payment_intent or charge.",
                "charge",
            )
        if params.has("payment_intent"):
            intent = self.engine.get("payment_intent", params.str("payment_intent"), "payment_intent")
            if intent["status"] != "succeeded" or not intent["latest_charge"]:
                raise invalid(
                    f"This PaymentIntent ({intent['id']}) does not have a successful charge to refund.",
                    "payment_intent",
                    "charge_not_refundable",
                )
            charge = self.engine.get("charge", intent["latest_charge"])
        else:
            charge = self.engine.get("charge", params.str("charge"), "charge")
        if charge["status"] != "succeeded":
            raise invalid(
                f"Charge {charge['id']} has not succeeded and cannot be refunded.",
                "charge",
                "charge_not_refundable",
            )
        remaining = charge["amount"] - charge["amount_refunded"]
        if remaining <= 0:
            raise invalid(
                f"Charge {charge['id']} has already been refunded.", "charge", "charge_already_refunded"
            )
        amount = params.int("amount", remaining, minimum=1)
        if amount > remaining:
            from infra.local.fake_stripe.util import format_money

            raise invalid(
                f"Refund amount ({format_money(amount, charge['currency'])}) is greater than unrefunded "
                f"amount on charge ({format_money(remaining, charge['currency'])})",
                "amount",
                "amount_too_large",
            )
        reason = params.str("reason", choices=("duplicate", "fraudulent", "requested_by_customer"))
        refund = {
            "id": new_id("re_"),
            "object": "refund",
            "amount": amount,
            "balance_transaction": new_id("txn_"),
            "charge": charge["id"],
            "created": self.engine.now(),
            "currency": charge["currency"],
            "destination_details": {
                "card": {
                    "reference_status": "pending",
                    "reference_type": "acquirer_reference_number",
                    "type": "refund",
                },
                "type": "card",
            },
            "metadata": self._metadata(params) if params.has("metadata") else {},
            "payment_intent": charge["payment_intent"],
            "reason": reason,
            "receipt_number": None,
            "source_transfer_reversal": None,
            "status": "succeeded",
            "transfer_reversal": None,
        }
        self.store.put("refund", refund)
        self.engine.emit("refund.created", "refund", refund)
        before = self.engine.snapshot("charge", charge)
        charge["amount_refunded"] += amount
        charge["refunded"] = charge["amount_refunded"] == charge["amount"]
        self.engine.emit_updated("charge.refunded", "charge", charge, before)
        return self._render("refund", refund, params)

    def retrieve_refund(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("refund", self.engine.get("refund", id), params)

    def list_refunds(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "charge", "payment_intent", "created"))
        charge, intent = params.str("charge"), params.str("payment_intent")
        return self._list(
            "refund",
            params,
            "/v1/refunds",
            lambda r: (
                (charge is None or r["charge"] == charge)
                and (intent is None or r["payment_intent"] == intent)
            ),
        )

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
        params = raw.allow(
            (
                "line_items",
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
            ),
            ("line_items",),
        )
        recurring = any(
            self.engine.price(line.get("price"), f"line_items[{i}][price]")["recurring"]
            for i, line in enumerate(params.list("line_items"))
            if isinstance(line, dict)
        )
        mode = "subscription" if recurring else "payment"
        lines = self._line_items(params, mode)
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
            "currency": self.engine.price(lines[0]["price"])["currency"],
            "custom_fields": [],
            "custom_text": {
                "after_submit": None,
                "shipping_address": None,
                "submit": None,
                "terms_of_service_acceptance": None,
            },
            "customer_creation": "if_required",
            "inactive_message": None,
            "invoice_creation": {
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
            },
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
            "_token": "",
            "_line_items": [{"id": new_id("li_"), **line} for line in lines],
            "_mode": mode,
        }
        from infra.local.fake_stripe.engine import _url_token

        link["_token"] = _url_token()
        self._apply_link_params(link, params, mode)
        self.store.put("payment_link", link)
        self.engine.emit("payment_link.created", "payment_link", link)
        return self._render("payment_link", link, params)

    def _apply_link_params(self, link: dict[str, Any], params: Params, mode: str) -> None:
        if params.has("after_completion"):
            link["after_completion"] = self._after_completion(params)
        if params.has("allow_promotion_codes"):
            link["allow_promotion_codes"] = params.bool("allow_promotion_codes")
        if params.has("metadata"):
            link["metadata"] = self._metadata(params, link["metadata"])
        if params.has("inactive_message"):
            link["inactive_message"] = params.str("inactive_message", max_length=500)
        if params.has("billing_address_collection"):
            link["billing_address_collection"] = params.str(
                "billing_address_collection", choices=("auto", "required")
            )
        if params.has("submit_type"):
            link["submit_type"] = params.str(
                "submit_type", choices=("auto", "book", "donate", "pay", "subscribe")
            )
        if params.has("payment_method_types") and set(params.list("payment_method_types")) - {"card"}:
            raise invalid(
                "The local fake supports only the `card` payment method type.", "payment_method_types"
            )
        if params.has("restrictions"):
            raise invalid("restrictions are not supported by the local fake.", "restrictions")
        if params.has("customer_creation"):
            if mode != "payment":
                raise invalid("`customer_creation` can only be used in `payment` mode.", "customer_creation")
            link["customer_creation"] = params.str("customer_creation", choices=("always", "if_required"))
        if params.has("payment_intent_data"):
            if mode != "payment":
                raise invalid(
                    "You can only specify `payment_intent_data` in `payment` mode.", "payment_intent_data"
                )
            data = params.sub("payment_intent_data", ("metadata", "description"))
            link["payment_intent_data"] = {
                "capture_method": None,
                "description": data.str("description"),
                "metadata": metadata_update({}, data.raw("metadata") or {}, "payment_intent_data[metadata]"),
                "setup_future_usage": None,
                "statement_descriptor": None,
                "statement_descriptor_suffix": None,
                "transfer_group": None,
            }
        if params.has("subscription_data"):
            if mode != "subscription":
                raise invalid(
                    "You can only specify `subscription_data` in `subscription` mode.", "subscription_data"
                )
            data = params.sub("subscription_data", ("metadata", "description", "trial_period_days"))
            link["subscription_data"] = {
                "description": data.str("description"),
                "invoice_settings": {"issuer": {"type": "self"}},
                "metadata": metadata_update({}, data.raw("metadata") or {}, "subscription_data[metadata]"),
                "trial_period_days": data.int("trial_period_days", minimum=1, maximum=730),
                "trial_settings": None,
            }
        if params.has("invoice_creation"):
            if mode != "payment":
                raise invalid(
                    "You can only specify `invoice_creation` in `payment` mode.", "invoice_creation"
                )
            creation = params.sub("invoice_creation", ("enabled", "invoice_data"), ("enabled",))
            invoice_data = creation.sub("invoice_data", ("metadata", "description", "footer"))
            link["invoice_creation"]["enabled"] = creation.bool("enabled")
            link["invoice_creation"]["invoice_data"].update(
                {
                    "description": invoice_data.str("description"),
                    "metadata": metadata_update(
                        {}, invoice_data.raw("metadata") or {}, "invoice_creation[invoice_data][metadata]"
                    ),
                }
            )

    def retrieve_payment_link(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("payment_link", self.engine.get("payment_link", id), params)

    def update_payment_link(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(
            (
                "active",
                "after_completion",
                "allow_promotion_codes",
                "metadata",
                "line_items",
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
        )
        link = self.engine.get("payment_link", id)
        before = self.engine.snapshot("payment_link", link)
        if params.has("active"):
            link["active"] = params.bool("active")
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
                    line["quantity"] = item.int("quantity", minimum=1)
        self._apply_link_params(link, params, link["_mode"])
        self.engine.emit_updated("payment_link.updated", "payment_link", link, before)
        return self._render("payment_link", link, params)

    def list_payment_links(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "active"))
        active = params.bool("active")
        return self._list(
            "payment_link",
            params,
            "/v1/payment_links",
            lambda link: active is None or link["active"] == active,
        )

    def payment_link_line_items(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
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
            else (self._default_portal_configuration())
        )
        return_url = params.str("return_url") or config["default_return_url"]
        if return_url and not return_url.startswith(("http://", "https://")):
            raise invalid("Not a valid URL", "return_url", "url_invalid")
        from infra.local.fake_stripe.engine import _url_token

        session = {
            "id": new_id("bps_"),
            "object": "billing_portal.session",
            "configuration": config["id"],
            "created": self.engine.now(),
            "customer": customer["id"],
            "flow": None,
            "livemode": False,
            "locale": params.str("locale"),
            "on_behalf_of": None,
            "return_url": return_url,
            "url": None,
            "_token": _url_token(),
        }
        self.store.put("billing_portal.session", session)
        return self._render("billing_portal.session", session, params)

    def _default_portal_configuration(self) -> dict[str, Any]:
        for config in self.store.all("billing_portal.configuration"):
            if config["is_default"]:
                return config
        return self._new_portal_configuration(Params({}, ()), is_default=True)

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

    def _new_portal_configuration(self, params: Params, is_default: bool = False) -> dict[str, Any]:
        now = self.engine.now()
        features = {
            "customer_update": {"allowed_updates": [], "enabled": False},
            "invoice_history": {"enabled": True},
            "payment_method_update": {"enabled": False},
            "subscription_cancel": {
                "cancellation_reason": {"enabled": False, "options": []},
                "enabled": True,
                "mode": "at_period_end",
                "proration_behavior": "none",
            },
            "subscription_update": {
                "default_allowed_updates": ["price"],
                "enabled": True,
                "products": [],
                "proration_behavior": "create_prorations",
                "schedule_at_period_end": {"conditions": []},
            },
        }
        config = {
            "id": new_id("bpc_"),
            "object": "billing_portal.configuration",
            "active": True,
            "application": None,
            "business_profile": {"headline": None, "privacy_policy_url": None, "terms_of_service_url": None},
            "created": now,
            "default_return_url": None,
            "features": self._portal_features(params, features),
            "is_default": is_default,
            "livemode": False,
            "login_page": {"enabled": False, "url": None},
            "metadata": {},
            "name": None,
            "updated": now,
        }
        self._apply_portal_params(config, params)
        return self.store.put("billing_portal.configuration", config)

    def _apply_portal_params(self, config: dict[str, Any], params: Params) -> None:
        if params.has("default_return_url"):
            url = params.str("default_return_url")
            if url and not url.startswith(("http://", "https://")):
                raise invalid("Not a valid URL", "default_return_url", "url_invalid")
            config["default_return_url"] = url
        if params.has("metadata"):
            config["metadata"] = self._metadata(params, config["metadata"])
        if params.has("name"):
            config["name"] = params.str("name")
        if params.has("active"):
            config["active"] = params.bool("active")
        if params.has("business_profile"):
            profile = params.sub(
                "business_profile", ("headline", "privacy_policy_url", "terms_of_service_url")
            )
            config["business_profile"].update(
                {
                    k: profile.str(k)
                    for k in ("headline", "privacy_policy_url", "terms_of_service_url")
                    if profile.has(k)
                }
            )

    def create_portal_configuration(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            ("features", "default_return_url", "metadata", "name", "business_profile"), ("features",)
        )
        config = self._new_portal_configuration(params)
        return self._render("billing_portal.configuration", config, params)

    def update_portal_configuration(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(
            ("features", "default_return_url", "metadata", "name", "business_profile", "active")
        )
        config = self.engine.get("billing_portal.configuration", id)
        if params.has("features"):
            self._portal_features(params, config["features"])
        self._apply_portal_params(config, params)
        config["updated"] = self.engine.now()
        return self._render("billing_portal.configuration", config, params)

    def retrieve_portal_configuration(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render(
            "billing_portal.configuration", self.engine.get("billing_portal.configuration", id), params
        )

    def list_portal_configurations(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "active", "is_default"))
        active, default = params.bool("active"), params.bool("is_default")
        return self._list(
            "billing_portal.configuration",
            params,
            "/v1/billing_portal/configurations",
            lambda c: (
                (active is None or c["active"] == active) and (default is None or c["is_default"] == default)
            ),
        )

    # --- events and webhook endpoints --------------------------------------------------------------

    def retrieve_event(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("event", self.engine.get("event", id), params)

    def list_events(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow((*LIST_PARAMS, "type", "types", "created", "delivery_success"))
        if params.has("type") and params.has("types"):
            raise invalid("You may only specify one of these parameters: type, types.", "types")
        event_type = params.str("type")
        types = set(params.list("types")) if params.has("types") else None
        created = timestamp_filter(params)

        def type_ok(name: str) -> bool:
            if types is not None:
                return name in types
            if event_type is None:
                return True
            if event_type.endswith("*"):
                return name.startswith(event_type[:-1])
            return name == event_type

        return self._list(
            "event",
            params,
            "/v1/events",
            lambda e: type_ok(e["type"]) and matches_timestamp(e["created"], created),
        )

    def create_webhook_endpoint(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            ("url", "enabled_events", "api_version", "description", "metadata"), ("url", "enabled_events")
        )
        url = params.str("url")
        if not url.startswith(("http://", "https://")):
            raise invalid(
                "Invalid URL: URL must be publicly accessible or a local address.", "url", "url_invalid"
            )
        endpoint = self.webhooks.add_endpoint(
            url,
            enabled_events=[str(e) for e in params.list("enabled_events")],
            api_version=params.str("api_version"),
            description=params.str("description"),
            metadata=self._metadata(params) if params.has("metadata") else {},
        )
        return {**public(endpoint), "secret": endpoint["_secret"]}

    def retrieve_webhook_endpoint(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(())
        return self._render("webhook_endpoint", self.engine.get("webhook_endpoint", id), params)

    def update_webhook_endpoint(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        params = raw.allow(("url", "enabled_events", "description", "metadata", "disabled"))
        endpoint = self.engine.get("webhook_endpoint", id)
        if params.has("url"):
            url = params.str("url")
            if not url or not url.startswith(("http://", "https://")):
                raise invalid("Invalid URL: URL must be an http(s) address.", "url", "url_invalid")
            endpoint["url"] = url
        if params.has("enabled_events"):
            endpoint["enabled_events"] = [str(e) for e in params.list("enabled_events")]
        if params.has("description"):
            endpoint["description"] = params.str("description")
        if params.has("metadata"):
            endpoint["metadata"] = self._metadata(params, endpoint["metadata"])
        if params.has("disabled"):
            endpoint["status"] = "disabled" if params.bool("disabled") else "enabled"
        return self._render("webhook_endpoint", endpoint, params)

    def delete_webhook_endpoint(self, raw: RawParams, id: str) -> dict[str, Any]:  # noqa: A002
        raw.allow(())
        self.engine.get("webhook_endpoint", id)
        self.webhooks.remove_endpoint(id)
        return {"id": id, "object": "webhook_endpoint", "deleted": True}

    def list_webhook_endpoints(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(LIST_PARAMS)
        return self._list("webhook_endpoint", params, "/v1/webhook_endpoints")


class RawParams:
    """The decoded parameters before an endpoint states which it accepts."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def allow(self, allowed: tuple[str, ...] | list[str], required: tuple[str, ...] = ()) -> Params:
        return Params(self.data, allowed, required)
