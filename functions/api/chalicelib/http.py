"""HTTP plumbing shared by every blueprint: errors as JSON `{"error": ...}`, body parsing.

Handlers stay thin: they parse with these helpers, authorize, call a service and return a dict.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any
from urllib.parse import unquote

from chalice import Response
from chalice.app import Request

from tandem.domain import account_types
from tandem.domain.ids import parse_id
from tandem.errors import TandemError, ValidationError
from tandem.integrations.outages import as_unavailable
from tandem.observability import logger

JSON_HEADERS = {"Content-Type": "application/json", "Cache-Control": "no-store"}


def error_response(
    status: int,
    message: str,
    errors: dict[str, str] | None = None,
    code: str | None = None,
    extra: dict[str, Any] | None = None,
) -> Response:
    body: dict[str, Any] = {"error": message}
    if errors:
        body["errors"] = errors
    if code:
        body["code"] = code  # a machine code where docs/api.md names one (e.g. out_of_credits)
    if extra:
        body.update(extra)  # what the caller needs to go on (a refused sign-in link's email)
    return Response(body=body, status_code=status, headers=dict(JSON_HEADERS))


def _answer(exc: TandemError) -> Response:
    response = error_response(exc.status, exc.message, exc.errors, exc.code, exc.extra)
    if exc.status == 503 and isinstance((exc.extra or {}).get("retryAfter"), int):
        response.headers["Retry-After"] = str(exc.extra["retryAfter"])  # type: ignore[index]
    return response


def handled(view: Callable[..., Any]) -> Callable[..., Any]:
    """Turn domain errors into 4xx JSON and anything unexpected into a logged 500."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return view(*args, **kwargs)
        except TandemError as exc:
            return _answer(exc)
        except Exception as exc:
            unavailable = as_unavailable(exc)  # Stripe or DynamoDB down past their retries: a 503
            if unavailable is not None:
                logger.warning(
                    "A dependency is unavailable",
                    extra={"route": view.__name__, "error": f"{type(exc).__name__}: {str(exc)[:200]}"},
                )
                return _answer(unavailable)
            logger.exception("Unhandled error in %s", view.__name__)
            return error_response(500, "Something went wrong on our side. Please try again.")

    return wrapper


PUBLIC_ROUTES: set[tuple[str, str]] = set()  # (path below /api, method) open without sign-in


ROUTE_AREAS: dict[tuple[str, str], str] = {}  # (path below /api, method) -> product area
# The area of the route being served: the caller's check (chalicelib.auth) refuses it to an
# account type that does not include it (tandem.domain.account_types).
current_area: ContextVar[str | None] = ContextVar("current_area", default=None)


def in_area(view: Callable[..., Any], area: str | None) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = current_area.set(area)
        try:
            return view(*args, **kwargs)
        finally:
            current_area.reset(token)

    return wrapper


def route(
    blueprint: Any, path: str, public: bool = False, area: str | None = None, **options: Any
) -> Callable[..., Any]:
    """`blueprint.route` with domain-error handling applied to the view. `public=True` marks
    a route that needs no sign-in (the route-walking security test skips only these); `area`
    names the part of the product it serves, which some account types do not include."""
    if area is not None:
        account_types.includes("member", area)  # an unknown area fails at import

    def register(view: Callable[..., Any]) -> Callable[..., Any]:
        blueprint.route(path, **options)(handled(in_area(view, area)))
        methods = options.get("methods", ["GET"])
        if public:
            PUBLIC_ROUTES.update((path, m) for m in methods)
        if area is not None:
            ROUTE_AREAS.update(((path, m), area) for m in methods)
        return view

    return register


MAX_JSON_DEPTH = 32  # our bodies nest at most three levels; anything deeper is not ours
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_json_value(value: Any) -> None:
    """Refuse what json.loads lets through but nothing downstream can store or send: a lone
    surrogate (e.g. the JSON string "\\ud800", which UTF-8 cannot encode, so DynamoDB, boto3
    and email fail half-way through a request) anywhere in a key or a string, and nesting deeper
    than MAX_JSON_DEPTH. Iterative, so a deep body cannot exhaust the stack here either."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                raise ValidationError("The request body contains text that is not valid Unicode")
        elif isinstance(item, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise ValidationError("The request body is nested too deeply")
            if isinstance(item, dict):
                pending.extend((key, depth) for key in item)
                pending.extend((child, depth + 1) for child in item.values())
            else:
                pending.extend((child, depth + 1) for child in item)


def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a ValidationError (400) for anything else: bytes that are
    not UTF-8/JSON, a lone surrogate anywhere, or nesting deeper than MAX_JSON_DEPTH (the C
    parser raises RecursionError near the interpreter's recursion limit; that is a 400 too)."""
    raw = request.raw_body
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except RecursionError:
        raise ValidationError("The request body is nested too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise ValidationError("The request body must be valid JSON") from None
    if not isinstance(body, dict):
        raise ValidationError("The request body must be a JSON object")
    _check_json_value(body)
    return body


def path_text(raw: str) -> str:
    """A text path parameter (an email, say) as the person typed it. API Gateway (REST) hands
    path parameters to the function exactly as the client sent them, still percent-encoded,
    and browsers encode `@` as %40; this decodes them, strictly: bytes that are not UTF-8 (a
    percent-encoded lone surrogate such as %ED%A0%80) are a 400, not a replacement character."""
    try:
        text = unquote(raw, errors="strict")
    except UnicodeDecodeError:
        raise ValidationError("The address contains text that is not valid Unicode") from None
    if _LONE_SURROGATE.search(text):
        raise ValidationError("The address contains text that is not valid Unicode")
    return text


def client_ip(request: Request) -> str:
    return str(((request.context or {}).get("identity") or {}).get("sourceIp") or "unknown")


def brand_id_param(raw: str) -> int:
    """Brand ids in paths and headers are positive integers (tandem.domain.ids); else a 400."""
    brand_id = parse_id(raw)
    if brand_id is None:
        raise ValidationError("Brand id must be a positive number")
    return brand_id


def normalise_response(response: Response) -> Response:
    """Every answer as the API promises it: Chalice's own errors (`{"Code", "Message"}`, e.g.
    405 or 415) in our `{"error"}` shape, JSON bodies with `Content-Type: application/json`,
    and `Cache-Control: no-store` on everything (answers carry tokens and private data)."""
    body = response.body
    if response.status_code >= 400 and isinstance(body, dict) and "Message" in body:
        response.body = {"error": body["Message"]}
    elif response.status_code >= 400 and isinstance(body, str) and '"Message"' in body:
        try:
            response.body = {"error": json.loads(body)["Message"]}
        except (ValueError, KeyError):
            pass
    headers = {k.lower(): k for k in response.headers}
    if "content-type" not in headers and (isinstance(response.body, dict | list) or response.body is None):
        response.headers["Content-Type"] = JSON_HEADERS["Content-Type"]
    if "cache-control" not in headers:
        response.headers["Cache-Control"] = JSON_HEADERS["Cache-Control"]
    return response
