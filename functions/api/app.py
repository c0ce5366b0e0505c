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

import time

from aws_lambda_powertools.logging.lambda_context import build_lambda_context_model
from chalice import Chalice

from chalicelib.http import normalise_response
from chalicelib.routes import (
    admin,
    billing,
    brands,
    collaborations,
    content,
    dashboard,
    health,
    matches,
    matching,
    notifications,
    pitch,
    requests,
    support,
    users,
)
from tandem.observability import active_tracer, cold_start, flush_metrics, function_name, logger

gc.freeze()
if _collecting:
    gc.enable()

settings().require("match_run_state_machine_arn")  # a missing variable fails here, at import

app = Chalice(app_name="tandem-api")
app.api.binary_types = []

API_PREFIX = "/api"
CORRELATION_HEADER = "x-correlation-id"
for blueprint in (
    health.bp,
    users.bp,
    dashboard.bp,
    matching.bp,
    support.bp,
    admin.bp,
    billing.bp,
    brands.bp,
    matches.bp,
    requests.bp,
    pitch.bp,
    collaborations.bp,
    content.bp,
    notifications.bp,
):
    app.register_blueprint(blueprint, url_prefix=API_PREFIX)


def _ids(event) -> tuple[str, str]:  # noqa: ANN001
    """(request id, correlation id): the Lambda invocation's id, and the id the caller sent in
    X-Correlation-Id or else API Gateway's own request id."""
    context = getattr(app, "lambda_context", None)
    gateway = (getattr(event, "context", None) or {}).get("requestId") or ""
    request_id = str(getattr(context, "aws_request_id", "") or gateway)
    headers = {k.lower(): v for k, v in (getattr(event, "headers", None) or {}).items()}
    correlation = (headers.get(CORRELATION_HEADER) or "").strip()[:100] or gateway or request_id
    return request_id, correlation


@app.middleware("http")
def function_context_in_logs(event, get_response):  # noqa: ANN001, ANN201
    """Log lines carry this function's name and request id and no key an earlier invocation
    appended, as `inject_lambda_context(clear_state=True)` gives the other functions."""
    if event.lambda_context is not None:
        logger.structure_logs(**build_lambda_context_model(event.lambda_context).__dict__)
    cold_start(function_name(event.lambda_context, "tandem-api"))
    return traced_request(event, get_response)


def traced_request(event, get_response):  # noqa: ANN001, ANN201
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
def request_context(event, get_response):  # noqa: ANN001, ANN201
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
