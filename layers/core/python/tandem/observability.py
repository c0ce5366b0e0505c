"""One Powertools logger, one Metrics object (EMF) and one Tracer for every function.

`METRICS` is the one list of the custom metrics the code emits: `count_event` / `record_metric` refuse a
name that is not on it, and the stage's CloudWatch dashboard and alarms in template.yaml are
generated from it (infra/observability.py; tests/unit/test_observability_template.py fails when
they differ). Every metric carries the `service` and `stage` dimensions; a few carry one more
(`job` for the scheduler's heartbeats, `function` for cold starts), emitted as their own EMF line.

Business metrics are flushed, as one EMF line on stdout, at the end of every invocation: by the
API's middleware (functions/api/app.py) and by `lambda_handler` around every other handler. The
local stack serves requests from many threads at once, so adding and flushing share a lock
(Powertools keeps one metric set per process).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit, single_metric

SERVICE = "tandem"
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "Tandem"
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)


def tracing_on() -> bool:
    """In Lambda, unless POWERTOOLS_TRACE_DISABLED: Powertools' own rule. Off, no Tracer is made:
    constructing one imports the X-Ray SDK (0.5-1 s here) even when it then stays disabled."""
    disabled = os.environ.get("POWERTOOLS_TRACE_DISABLED", "").lower() in ("1", "true")
    return bool(os.environ.get("LAMBDA_TASK_ROOT")) and not disabled


def invocation_sampled() -> bool:
    """Whether X-Ray records this invocation. Lambda (Tracing: Active) sets _X_AMZN_TRACE_ID
    before each invocation, with `Sampled=1` when X-Ray's sampling chose it; for any other the
    X-Ray SDK would record nothing (its segments are dummies), so it need not be loaded for it."""
    return "Sampled=1" in os.environ.get("_X_AMZN_TRACE_ID", "")


# X-Ray (Tracing: Active in template.yaml). botocore's calls (DynamoDB, SQS, Step Functions) and
# every other HTTP call through http.client (Stripe's and web push's requests, Slack's urllib) are
# subsegments; `requests` itself is not patched as well, or each call would be traced twice.
TRACED_MODULES = ("botocore", "httplib")
_tracer: Tracer | None = None
_lock = threading.Lock()


def active_tracer() -> Tracer | None:
    """The Tracer for this invocation, or None when it is not traced (outside Lambda, tracing
    disabled, or not sampled). Made on the first sampled invocation: making it imports the X-Ray
    SDK (about 95 modules, asyncio among them: 20-25 ms of CPU a cold start) and patches botocore
    and http.client, which a cold start whose first request is not sampled no longer pays. The
    patches are class-wide, so clients made before it are traced from then on."""
    global _tracer
    if not (tracing_on() and invocation_sampled()):
        return None
    if _tracer is None:
        with _lock:
            if _tracer is None:
                _tracer = Tracer(service=SERVICE, patch_modules=TRACED_MODULES)
    return _tracer


@dataclass(frozen=True)
class MetricDef:
    name: str
    widget: str  # the dashboard widget that shows it
    unit: str = "Count"
    dimension: str | None = None  # one more dimension than service and stage
    doc: str = ""


# Every custom metric, in dashboard order (docs/decisions.md "Business events are EMF metrics").
METRICS: tuple[MetricDef, ...] = (
    MetricDef("SignUp", "Members", doc="an account was created"),
    MetricDef("RequestSent", "Requests", doc="a connection request was sent"),
    MetricDef("RequestAccepted", "Requests"),
    MetricDef("RequestDeclined", "Requests"),
    MetricDef("RequestCancelled", "Requests"),
    MetricDef("RequestExpired", "Requests", doc="a pending request expired unanswered (its credit back)"),
    MetricDef("PitchSent", "Requests", doc="a pitch (a request from the Pitch Area) was sent"),
    MetricDef("MatchRunStarted", "Match runs"),
    MetricDef("MatchRunDone", "Match runs"),
    MetricDef("MatchRunFailed", "Match runs"),
    MetricDef("MatchRunDuration", "Match run duration", unit="Milliseconds", doc="start to done or failed"),
    MetricDef("StripeEventReceived", "Stripe events", doc="a billing event was recorded by the webhook"),
    MetricDef("StripeEventProcessed", "Stripe events", doc="the billing workflow applied an event"),
    MetricDef("StripeEventFailed", "Stripe events", doc="the billing workflow gave up on an event"),
    MetricDef(
        "StripeEventRetried", "Stripe events", doc="a failed event was started again by the scheduled retry"
    ),
    MetricDef("StripeSync", "Billing", doc="an account's billing state was re-read from Stripe"),
    MetricDef("StripeRefund", "Billing", doc="a charge.refunded event was applied"),
    MetricDef("CheckoutSessionCreated", "Billing", doc="a member was sent to Stripe Checkout"),
    MetricDef("CreditsGranted", "Billing", doc="credits added to an account (sum of credits)"),
    MetricDef(
        "DuplicateTrialCancelled", "Billing", doc="a second free trial of one account was cancelled at Stripe"
    ),
    MetricDef(
        "DuplicatePlanRefunded",
        "Billing",
        doc="a second paid main plan of one account was cancelled and its payment refunded",
    ),
    MetricDef("FeatureCreated", "Pitch Area"),
    MetricDef("FeatureApproved", "Pitch Area"),
    MetricDef("FeatureRefused", "Pitch Area"),
    MetricDef("FeatureEnded", "Pitch Area"),
    MetricDef("NotificationSentEmail", "Notifications", doc="an email was handed to SES"),
    MetricDef("NotificationSentPush", "Notifications", doc="a browser push was accepted by the push service"),
    MetricDef("NotificationSentSlack", "Notifications", doc="a Slack message was posted"),
    MetricDef(
        "NotificationFailed", "Notifications", doc="a queue message failed (it is retried, then the DLQ)"
    ),
    MetricDef("ColdStart", "Cold starts", dimension="function", doc="first invocation of a Lambda instance"),
    MetricDef("JobHeartbeat", "Scheduled jobs", dimension="job", doc="a scheduled job finished"),
)
BY_NAME = {m.name: m for m in METRICS}
EVENTS = tuple(m.name for m in METRICS if m.dimension is None)


def stage() -> str:
    return os.environ.get("STAGE") or "local"


def _dimensions() -> None:
    if metrics.default_dimensions.get("stage") != stage():
        metrics.set_default_dimensions(stage=stage())


def count_event(name: str, value: float = 1) -> None:
    """Count one business event (flushed with the invocation's metrics)."""
    record_metric(name, value)


def record_metric(name: str, value: float) -> None:
    """Add one value of a metric of METRICS (flushed with the invocation's metrics)."""
    if name not in EVENTS:
        raise ValueError(f"unknown business event {name!r}")
    with _lock:
        _dimensions()
        metrics.add_metric(name=name, unit=MetricUnit(BY_NAME[name].unit), value=value)


def emit_now(name: str, dimension_value: str, value: float = 1) -> None:
    """Write one metric with its own extra dimension (METRICS) as its own EMF line now."""
    metric = BY_NAME[name]
    if metric.dimension is None:
        raise ValueError(f"{name} has no extra dimension: use count_event")
    if os.environ.get("POWERTOOLS_METRICS_DISABLED", "").lower() == "true":  # as Metrics honours it
        return
    with single_metric(
        name=name,
        unit=MetricUnit(metric.unit),
        value=value,
        namespace=NAMESPACE,
        default_dimensions={"service": SERVICE, "stage": stage()},
    ) as one:
        one.add_dimension(name=metric.dimension, value=dimension_value)


def flush_metrics() -> None:
    """Write the metrics counted so far as one EMF line (nothing when none were counted)."""
    with _lock:
        if metrics.metric_set:
            _dimensions()
            metrics.flush_metrics()


_warm: set[str] = set()


def cold_start(function: str) -> None:
    """The ColdStart metric, once per function per process (a Lambda instance)."""
    if function not in _warm:
        _warm.add(function)
        emit_now("ColdStart", function)


def function_name(context: Any, fallback: str) -> str:
    return str(
        getattr(context, "function_name", "") or os.environ.get("AWS_LAMBDA_FUNCTION_NAME") or fallback
    )


def lambda_handler(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A Lambda handler traced (X-Ray), with the logger's Lambda context (state cleared per
    invocation), a cold-start metric, and its metrics flushed when it returns or raises."""

    @functools.wraps(handler)
    def flushed(event: Any, context: Any) -> Any:
        try:
            cold_start(function_name(context, f"{handler.__module__}.{handler.__name__}"))
            return handler(event, context)
        finally:
            flush_metrics()

    traced: list[Callable[..., Any]] = []  # `flushed` as X-Ray's subsegment, made when first sampled

    @functools.wraps(handler)
    def maybe_traced(event: Any, context: Any) -> Any:
        tracer = active_tracer()
        if tracer is None:
            return flushed(event, context)
        if not traced:
            traced.append(tracer.capture_lambda_handler(flushed, capture_response=False))
        return traced[0](event, context)

    return logger.inject_lambda_context(clear_state=True)(maybe_traced)
