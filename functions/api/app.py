"""Tandem HTTP API: one Chalice app, one blueprint per area, every route under /api.

API Gateway has one resource per route here (template.yaml); tests/unit/test_template.py
fails when the two differ. One middleware wraps every request: it sets the request's log keys
(request id, correlation id; auth adds the user and the brand) and clears them after, gives
every answer the JSON headers (Content-Type, Cache-Control: no-store) and the `{"error"}` shape,
logs the answer, and flushes the request's business metrics (EMF).
"""

# ruff: noqa: E402 (the JWT key's read starts before the imports it overlaps)
from __future__ import annotations

import gc

# A cold start's imports (botocore's service models, pynamodb, Chalice, our modules) allocate
# only what lives as long as the process: the cyclic collector's passes over that growing heap
# (full collections among them) found next to nothing to free and cost a member's first GET
# /api/dashboard ~70 ms of its ~315 ms CPU on the built artifact (tests/bench/
# cold_start_artifact.py). Off while this module imports; what it loaded is then frozen
# (gc.freeze: never scanned again) and collection resumes as it was.
_collecting = gc.isenabled()
gc.disable()

from tandem.config import settings
from tandem.integrations.aws import prefetch_secret

# Every signed-in request needs the JWT key: read it while the imports below run (a cold
# start's first request then finds it cached instead of waiting for Secrets Manager).
prefetch_secret(settings().jwt_secret_name)

import importlib
import threading
import time

from aws_lambda_powertools.logging.lambda_context import build_lambda_context_model
from chalice import Chalice

from chalicelib.http import normalise_response
from tandem.observability import active_tracer, cold_start, flush_metrics, function_name, logger

gc.freeze()
if _collecting:
    gc.enable()

settings().require("match_run_state_machine_arn")  # a missing variable fails here, at import

app = Chalice(app_name="tandem-api")
app.api.binary_types = []

API_PREFIX = "/api"
CORRELATION_HEADER = "x-correlation-id"
# Each area of the API is a route module (chalicelib/routes/<area>.py) with its services, all
# imported at its top. None is imported here: the first request to a path of an area imports
# its module and registers its blueprint (`load_area`), so a cold start loads what its first
# request needs (a member's first GET /api/dashboard: the dashboard's, not the admin console's
# nor Slack's) and every module still names what it depends on at its top (docs/decisions.md
# 2026-12-03 "routes load per area"). Paths below /api, by their leading segments: the longest
# that is listed names the area. tests/unit/test_import_boundaries.py holds it to the modules.
AREAS: dict[str, tuple[str, ...]] = {
    "health": ("/health",),
    "users": ("/users",),
    "dashboard": ("/dashboard",),
    "matching": ("/matching",),
    "support": ("/issues",),
    "admin": ("/admin",),
    "billing": (
        "/checkout",
        "/payment-link",
        "/products",
        "/stripe",
        "/users/stripe-portal-url",
        "/users/webhooks-in-progress",
        "/users/yearly-upgrade",
    ),
    "brands": ("/brand", "/brands"),
    "matches": ("/matches", "/brands/search"),
    "requests": ("/requests", "/connections", "/declines", "/quick-action"),
    "pitch": ("/pitch", "/admin/features"),
    "collaborations": ("/collaborations", "/calendar"),
    "content": (
        "/collab",
        "/videos",
        "/connections/{otherBrandId}/share",
        "/users/action/instructions",
        "/users/video-view",
    ),
    "notifications": ("/notifications", "/browser-notifications", "/slack"),
}
_AREA_OF = {prefix: area for area, prefixes in AREAS.items() for prefix in prefixes}
_loaded: set[str] = set()
_loading = threading.Lock()  # the local stack serves requests on threads: one import, one registration


def area_of(resource_path: str) -> str | None:
    """The area serving an API Gateway resource path (`/api/users/{id}/...`), or None."""
    segments = resource_path.removeprefix(API_PREFIX).strip("/").split("/")
    for end in range(len(segments), 0, -1):
        area = _AREA_OF.get("/" + "/".join(segments[:end]))
        if area is not None:
            return area
    return None


def load_area(area: str) -> None:
    """Import the area's route module and register its routes, once. As at this module's
    import, what that allocates lives as long as the process: it is not collected while the
    import runs, and is frozen after it (gc.freeze: never scanned again)."""
    if area in _loaded:
        return
    with _loading:
        if area in _loaded:
            return
        collecting = gc.isenabled()
        gc.disable()
        try:
            module = importlib.import_module(f"chalicelib.routes.{area}")
            app.register_blueprint(module.bp, url_prefix=API_PREFIX)
            _loaded.add(area)
        finally:
            gc.freeze()
            if collecting:
                gc.enable()


def load_every_area() -> Chalice:
    """Every route registered (what reads the whole route table: the template's check, the
    route-walking tests); the app."""
    for area in AREAS:
        load_area(area)
    return app


def _ids(event) -> tuple[str, str]:
    """(request id, correlation id): the Lambda invocation's id, and the id the caller sent in
    X-Correlation-Id or else API Gateway's own request id."""
    context = getattr(app, "lambda_context", None)
    gateway = (getattr(event, "context", None) or {}).get("requestId") or ""
    request_id = str(getattr(context, "aws_request_id", "") or gateway)
    headers = {k.lower(): v for k, v in (getattr(event, "headers", None) or {}).items()}
    correlation = (headers.get(CORRELATION_HEADER) or "").strip()[:100] or gateway or request_id
    return request_id, correlation


@app.middleware("http")
def function_context_in_logs(event, get_response):
    """Log lines carry this function's name and request id and no key an earlier invocation
    appended, as `inject_lambda_context(clear_state=True)` gives the other functions."""
    if event.lambda_context is not None:
        logger.structure_logs(**build_lambda_context_model(event.lambda_context).__dict__)
    cold_start(function_name(event.lambda_context, "tandem-api"))
    return traced_request(event, get_response)


def traced_request(event, get_response):
    """The request as one X-Ray subsegment (the other functions: `lambda_handler`); its
    DynamoDB, SQS, Step Functions and Stripe calls are subsegments of it. Not traced outside
    Lambda nor when X-Ray did not sample the invocation (the X-Ray SDK is loaded on the first one
    that is)."""
    tracer = active_tracer()
    if tracer is None:
        return get_response(event)
    route = (getattr(event, "context", None) or {}).get("resourcePath", "")
    with tracer.provider.in_subsegment(f"## {route or 'request'}") as subsegment:
        subsegment.put_annotation(key="route", value=route)
        return get_response(event)


@app.middleware("http")
def request_context(event, get_response):
    started = time.perf_counter()
    request_id, correlation_id = _ids(event)
    logger.thread_safe_clear_keys()
    logger.thread_safe_append_keys(
        request_id=request_id, correlation_id=correlation_id, user=None, brand=None
    )
    try:
        response = normalise_response(get_response(event))
        logger.info(
            "API call",
            extra={
                "method": getattr(event, "method", ""),
                "route": (getattr(event, "context", None) or {}).get("resourcePath", ""),
                "status": response.status_code,
                "ms": round((time.perf_counter() - started) * 1000),
            },
        )
        return response
    finally:
        flush_metrics()
        logger.thread_safe_clear_keys()


@app.middleware("http")
def area_routes(event, get_response):
    """The request's area loaded before Chalice looks its route up (after this middleware)."""
    area = area_of((getattr(event, "context", None) or {}).get("resourcePath", ""))
    if area is not None:
        load_area(area)
    return get_response(event)
