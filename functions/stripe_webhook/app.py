"""Stripe webhook: verify the signature on the raw body (a forged or over-300-s-old one is a
400), record the event, start its billing execution, answer 2xx fast. The work happens in the
billing workflow (tandem.services.stripe_events: received -> started -> done).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from tandem.config import settings
from tandem.integrations.aws import get_secret
from tandem.observability import lambda_handler, logger
from tandem.services import stripe_events

settings().require("billing_state_machine_arn")  # at import: a missing variable fails the deploy's first call


def _reply(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps(body),
    }


def _webhook_secret() -> str:
    raw = get_secret(settings().stripe_secret_name)
    return json.loads(raw)["webhook_secret"]


@lambda_handler
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    import stripe

    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        body = base64.b64decode(body).decode("utf-8")
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    signature = headers.get("stripe-signature", "")
    if not signature:
        return _reply(400, {"error": "Missing Stripe-Signature header"})
    try:
        stripe_event = stripe.Webhook.construct_event(body, signature, _webhook_secret())
    except ValueError:
        return _reply(400, {"error": "Invalid payload"})
    except stripe.SignatureVerificationError:
        return _reply(400, {"error": "Invalid signature"})
    event_id = stripe_event["id"]
    event_type = stripe_event["type"]
    obj = stripe_event.data.object
    object_id = str(getattr(obj, "id", "") or "")
    customer = stripe_events.customer_of(event_type, obj)
    logger.append_keys(stripe_event_id=event_id, stripe_event_type=event_type)
    if not stripe_events.is_billing_event(event_type):
        return _reply(200, {"received": True, "ignored": True})  # nothing recorded, nothing started
    if not stripe_events.receive(event_id, event_type, object_id, customer):
        logger.info("Duplicate Stripe event ignored")
        return _reply(200, {"received": True, "duplicate": True})
    return _reply(200, {"received": True})
