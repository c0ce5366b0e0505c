"""Task handlers of the billing state machine (infra/statemachines/billing.asl.json)."""

from __future__ import annotations

from typing import Any

from tandem.config import settings
from tandem.observability import lambda_handler, logger
from tandem.services import stripe_events

settings()  # checked at import: a missing variable fails here, with its name


@lambda_handler
def process_event(event: dict[str, Any], context: Any) -> dict[str, Any]:
    logger.append_keys(stripe_event_id=event["eventId"], stripe_event_type=event["type"])
    return stripe_events.process(event["eventId"], event["type"], event.get("objectId", ""))  # sync_customer


@lambda_handler
def mark_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    error = event.get("error") or {}
    logger.error("Stripe event processing failed", extra={"error": error})
    return stripe_events.mark_failed(
        event["eventId"], str(error.get("Error", "failed")), int(event.get("attempt") or 0)
    )
