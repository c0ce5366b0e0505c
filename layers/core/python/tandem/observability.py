"""One Powertools logger and one Metrics object (EMF) for every function.

Business events (sign-ups, requests sent / accepted / declined / cancelled, match runs and
their failures) are counted with `count_event`; the metrics are flushed, as one EMF line on
stdout, at the end of every invocation: by the API's middleware (functions/api/app.py) and by
`lambda_handler` around every other handler. The local stack serves requests from many threads
at once, so adding and flushing share a lock (Powertools keeps one metric set per process).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

SERVICE = "tandem"
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "Tandem", service=SERVICE)
_lock = threading.Lock()

# The business events, by metric name (docs/decisions.md "Business events are EMF metrics").
EVENTS = (
    "SignUp",
    "RequestSent",
    "RequestAccepted",
    "RequestDeclined",
    "RequestCancelled",
    "MatchRunStarted",
    "MatchRunDone",
    "MatchRunFailed",
    "StripeEventFailed",
    "PitchSent",
    "FeatureCreated",
    "FeatureApproved",
    "FeatureRefused",
    "FeatureEnded",
)


def count_event(name: str, value: int = 1) -> None:
    """Count one business event (flushed with the invocation's metrics)."""
    if name not in EVENTS:
        raise ValueError(f"unknown business event {name!r}")
    with _lock:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def flush_metrics() -> None:
    """Write the metrics counted so far as one EMF line (nothing when none were counted)."""
    with _lock:
        if metrics.metric_set:
            metrics.flush_metrics()


def lambda_handler(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A Lambda handler with the logger's Lambda context (state cleared per invocation) and its
    metrics flushed when it returns or raises."""

    @functools.wraps(handler)
    def flushed(event: Any, context: Any) -> Any:
        try:
            return handler(event, context)
        finally:
            flush_metrics()

    return logger.inject_lambda_context(clear_state=True)(flushed)
