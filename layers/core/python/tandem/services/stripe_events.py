"""Stripe webhook events: recorded once (conditional put), then processed by a Standard
execution named after the event id, so a redelivered event never runs twice.

Processing re-reads the Stripe object instead of trusting event order; what each event type
does to subscriptions and credits arrives with the billing issue. Until then an event is
recorded and marked processed with a note saying no handler exists for its type.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from pynamodb.exceptions import PutError

from tandem.config import settings
from tandem.integrations.aws import client
from tandem.observability import count_event
from tandem.store.models import StripeEvent

HANDLED_TYPES: dict[str, Any] = {}


def record(event_id: str, event_type: str, object_id: str) -> bool:
    """Store the event; False when it was already recorded (a redelivery)."""
    item = StripeEvent(
        *StripeEvent.key(event_id),
        event_id=event_id,
        event_type=event_type,
        object_id=object_id,
        received_at=datetime.now(UTC),
    )
    try:
        item.save(condition=StripeEvent.pk.does_not_exist())
    except PutError as exc:
        if exc.cause_response_code == "ConditionalCheckFailedException":
            return False
        raise
    return True


def start_processing(event_id: str, event_type: str, object_id: str) -> None:
    client("stepfunctions").start_execution(
        stateMachineArn=settings().require("billing_state_machine_arn"),
        name=event_id,
        input=json.dumps({"eventId": event_id, "type": event_type, "objectId": object_id}),
    )


def _mark(event_id: str, status: str, message: str) -> None:
    StripeEvent.at(event_id).update(
        actions=[StripeEvent.status.set(status), StripeEvent.message.set(message)]
    )


def process(event_id: str, event_type: str, object_id: str) -> dict[str, Any]:
    handler = HANDLED_TYPES.get(event_type)
    if handler is None:
        _mark(event_id, "processed", f"No handler for {event_type}")
        return {"eventId": event_id, "status": "processed", "handled": False}
    handler(object_id)
    _mark(event_id, "processed", "")
    return {"eventId": event_id, "status": "processed", "handled": True}


def mark_failed(event_id: str, reason: str) -> dict[str, Any]:
    _mark(event_id, "failed", reason[:500])
    count_event("StripeEventFailed")
    return {"eventId": event_id, "status": "failed"}
