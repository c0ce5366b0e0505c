"""The plumbing every /v1 endpoint shares: authentication, form decoding, idempotency, the JSON
answer, rendering with `expand`, and the table-driven retrieve and list endpoints (each
resource module gives its `Listing`s: the URL, the kind and the filters its list accepts)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from infra.local.fake_stripe.engine import API_VERSION, Engine
from infra.local.fake_stripe.params import LIST_PARAMS, Params, matches_timestamp, timestamp_filter
from infra.local.fake_stripe.store import Store
from infra.local.fake_stripe.util import StripeError, decode_query, invalid, metadata_update, missing, new_id

IDEMPOTENCY_TTL = 24 * 3600
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
CLIENT_REFERENCE = re.compile(r"^[A-Za-z0-9_-]{1,200}$")

Check = Callable[[dict[str, Any]], bool]
Filter = Callable[[Params, str], Check | None]  # (the request's parameters, its name) -> a test or None


@dataclass(frozen=True)
class Listing:
    """GET <url>: the objects of `kind`, newest first, kept by every filter whose parameter is
    given; `accepted` are parameters Stripe takes that change nothing here."""

    kind: str
    url: str
    filters: Mapping[str, Filter] = field(default_factory=dict)
    accepted: tuple[str, ...] = ()


def equals(key: str | None = None, choices: tuple[str, ...] | None = None) -> Filter:
    """Keeps the objects whose `key` (the parameter's own name if None) is the value given."""

    def make(params: Params, name: str) -> Check | None:
        value = params.str(name, choices=choices)
        return None if value is None else (lambda o: o[key or name] == value)

    return make


def one_of(key: str, most: int | None = None) -> Filter:
    """Keeps the objects whose `key` is one of the values listed (at most `most` of them)."""

    def make(params: Params, name: str) -> Check | None:
        if not params.has(name):
            return None
        values = set(params.list(name))
        if most is not None and len(values) > most:
            raise invalid(f"You may pass at most {most} {name}.", name)
        return lambda o: o[key] in values

    return make


def flag(params: Params, name: str) -> Check | None:
    value = params.bool(name)
    return None if value is None else (lambda o: o[name] == value)


def created(params: Params, name: str) -> Check | None:
    bounds = timestamp_filter(params, name)
    return (lambda o: matches_timestamp(o[name], bounds)) if bounds else None


class RawParams:
    """The decoded parameters before an endpoint states which it accepts."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def allow(self, allowed: tuple[str, ...] | list[str], required: tuple[str, ...] = ()) -> Params:
        return Params(self.data, allowed, required)


class ApiBase:
    """What every resource's endpoints share. `resources`: the modules of the composed Api, each
    with its ROUTES (path, method, endpoint), RETRIEVE (path -> kind) and LISTINGS."""

    resources: tuple[ModuleType, ...] = ()
    retrievable: Mapping[str, tuple[str, ...]] = {}  # kind -> the parameters its retrieve accepts

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
        self.listings: dict[str, Listing] = {}
        rules = []
        for module in self.resources:
            rules += [Rule(path, methods=[method], endpoint=name) for path, method, name in module.ROUTES]
            rules += [
                Rule(path, methods=["GET"], endpoint="retrieve", defaults={"kind": kind})
                for path, kind in module.RETRIEVE.items()
            ]
            rules += [
                Rule(listing.url, methods=["GET"], endpoint="list_objects", defaults={"listing": name})
                for name, listing in module.LISTINGS.items()
            ]
            self.listings |= module.LISTINGS
        self.routes = Map(rules, strict_slashes=False)

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
        items = [o for o in objects if keep(o)] if objects is not None else self.store.matching(kind, keep)
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

    # --- the shared endpoints and helpers ----------------------------------------------------

    def retrieve(self, raw: RawParams, id: str, kind: str) -> dict[str, Any]:
        params = raw.allow(self.retrievable.get(kind, ()))
        return self._render(kind, self.engine.get(kind, id), params)

    def list_objects(self, raw: RawParams, listing: str) -> dict[str, Any]:
        spec = self.listings[listing]
        params = raw.allow((*LIST_PARAMS, *spec.filters, *spec.accepted))
        checks = [check for name, make in spec.filters.items() if (check := make(params, name))]
        return self._list(spec.kind, params, spec.url, lambda o: all(check(o) for check in checks))

    def _customer(self, customer_id: str, param: str = "id") -> dict[str, Any]:
        return self.engine.get("customer", customer_id, param)

    def _metadata(self, params: Params, current: dict[str, str] | None = None) -> dict[str, str]:
        return metadata_update(current or {}, params.raw("metadata"))

    def _email(self, params: Params, key: str = "email") -> str | None:
        email = params.str(key, max_length=512)
        if email and not EMAIL.match(email):
            raise invalid(f"Invalid email address: {email}", params.name(key), "email_invalid")
        return email
