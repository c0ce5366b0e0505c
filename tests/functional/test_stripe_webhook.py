"""Stripe webhook: signature on the raw body, one record per event id, billing execution."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest

from tests.conftest import wait_for_execution
from tests.functional.helpers import Api


def _secret(aws) -> str:
    from tandem.integrations.aws import get_secret

    return json.loads(get_secret(aws.secrets["StripeSecret"]))["webhook_secret"]


def _signed(payload: bytes, secret: str) -> str:
    timestamp = int(time.time())
    signature = hmac.new(secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={signature}"


def _event(event_id: str = "evt_123") -> bytes:
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": "customer.subscription.updated",
            "data": {"object": {"id": "sub_1", "object": "subscription"}},
        }
    ).encode()


def test_signed_event_is_recorded_once_and_processed_by_the_billing_workflow(aws):
    from tandem.store import keys
    from tandem.store.models import StripeEvent

    api, body = Api(aws), _event()
    headers = {"Stripe-Signature": _signed(body, _secret(aws))}
    status, reply = api.call("POST", "/api/stripe/webhook", headers, body)
    assert (status, reply) == (200, {"received": True})

    machine = aws.state_machines["BillingStateMachine"]
    result = wait_for_execution(machine.arn.replace(":stateMachine:", ":execution:") + ":evt_123")
    assert result["status"] == "SUCCEEDED"
    stored = StripeEvent.get(keys.stripe_event_pk("evt_123"), keys.META)
    assert (stored.status, stored.object_id) == ("done", "sub_1")  # received -> started -> done

    status, reply = api.call("POST", "/api/stripe/webhook", headers, body)
    assert (status, reply) == (200, {"received": True, "duplicate": True})


@pytest.mark.parametrize(
    ("headers", "error"),
    [({}, "Missing Stripe-Signature header"), ({"Stripe-Signature": "t=1,v1=bad"}, "Invalid signature")],
)
def test_unsigned_or_forged_events_are_rejected_and_not_recorded(aws, headers, error):
    from tandem.store import keys
    from tandem.store.models import StripeEvent

    status, reply = Api(aws).call("POST", "/api/stripe/webhook", headers, _event("evt_forged"))
    assert (status, reply) == (400, {"error": error})
    assert StripeEvent.count(keys.stripe_event_pk("evt_forged")) == 0


def test_an_event_that_cannot_change_billing_is_acknowledged_and_starts_nothing(aws):
    """One checkout sends about ten events; only the billing ones (stripe_events.BILLING_EVENTS)
    start an execution and a sync."""
    from tandem.store import keys
    from tandem.store.models import StripeEvent

    body = json.dumps(
        {
            "id": "evt_pi",
            "object": "event",
            "type": "payment_intent.created",
            "data": {"object": {"id": "pi_1", "object": "payment_intent", "customer": "cus_1"}},
        }
    ).encode()
    status, reply = Api(aws).call(
        "POST", "/api/stripe/webhook", {"Stripe-Signature": _signed(body, _secret(aws))}, body
    )
    assert (status, reply) == (200, {"received": True, "ignored": True})
    assert StripeEvent.count(keys.stripe_event_pk("evt_pi")) == 0
    machine = aws.state_machines["BillingStateMachine"]
    from tandem.integrations.aws import client

    names = [
        e["name"] for e in client("stepfunctions").list_executions(stateMachineArn=machine.arn)["executions"]
    ]
    assert "evt_pi" not in names
