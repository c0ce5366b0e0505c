"""Stripe webhook: verify the signature on the raw body bytes before anything reads them (a
forged one, one more than 300 s old or dated more than 300 s ahead is a 400), then parse; a
body that is no Stripe event (not UTF-8, not a JSON object, no `id` or `type`, nested too
deeply, text that is not valid Unicode) is a 400 too, logged as a warning without a traceback.
A signed event we cannot use is recorded and answered 2xx so Stripe stops redelivering it.
Otherwise record the event, start its billing execution, answer 2xx fast. The work happens in
the billing workflow (tandem.services.stripe_events: received -> started -> done).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from tandem.config import settings
from tandem.integrations.aws import get_secret
from tandem.observability import lambda_handler, logger
from tandem.services import stripe_events

settings().require("billing_state_machine_arn")  # at import: a missing variable fails the deploy's first call

# Every answer is about one delivery: nothing between Stripe and us may keep it.
HEADERS = {"Content-Type": "application/json", "Cache-Control": "no-store"}


def _reply(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": status, "headers": dict(HEADERS), "body": json.dumps(body)}


def _webhook_secret() -> str:
    raw = get_secret(settings().stripe_secret_name)
    return json.loads(raw)["webhook_secret"]


def _raw_body(event: dict[str, Any]) -> bytes | None:
    """The body byte for byte as the client sent it (API Gateway base64-encodes one that is not
    text); None when the base64 itself is broken."""
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            return None
    return body.encode("utf-8", "surrogatepass")


@lambda_handler
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
    signature = headers.get("stripe-signature") or ""
    if not isinstance(signature, str) or not signature:
        return _reply(400, {"error": "Missing Stripe-Signature header"})
    payload = _raw_body(event)
    if payload is None:
        return _reply(400, {"error": "Invalid payload"})
    refusal = stripe_events.verify_signature(payload, signature, _webhook_secret())
    if refusal:
        logger.warning("Stripe webhook refused", extra={"reason": refusal})
        return _reply(400, {"error": "Invalid signature"})
    try:
        parsed = stripe_events.parse_event(payload)
    except stripe_events.MalformedEvent as exc:
        logger.warning("Signed Stripe webhook body is not an event", extra={"reason": str(exc)})
        return _reply(400, {"error": "Invalid payload"})
    logger.append_keys(stripe_event_id=parsed.event_id, stripe_event_type=parsed.event_type)
    if not stripe_events.is_billing_event(parsed.event_type):
        return _reply(200, {"received": True, "ignored": True})  # nothing recorded, nothing started
    if parsed.unusable:
        stripe_events.record_unusable(parsed)
        logger.warning("Signed Stripe event cannot be used", extra={"reason": parsed.unusable})
        return _reply(200, {"received": True, "ignored": True})
    if not stripe_events.receive(parsed.event_id, parsed.event_type, parsed.object_id, parsed.customer):
        logger.info("Duplicate Stripe event ignored")
        return _reply(200, {"received": True, "duplicate": True})
    return _reply(200, {"received": True})
