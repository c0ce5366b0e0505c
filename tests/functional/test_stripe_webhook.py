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
    from tandem.store.billing import StripeEvent

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
    from tandem.store.billing import StripeEvent

    status, reply = Api(aws).call("POST", "/api/stripe/webhook", headers, _event("evt_forged"))
    assert (status, reply) == (400, {"error": error})
    assert StripeEvent.count(keys.stripe_event_pk("evt_forged")) == 0


def test_an_event_that_cannot_change_billing_is_acknowledged_and_starts_nothing(aws):
    """One checkout sends about ten events; only the billing ones (stripe_events.BILLING_EVENTS)
    start an execution and a sync."""
    from tandem.store import keys
    from tandem.store.billing import StripeEvent

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


# ---------------------------------------------------------------- bodies that are no event


@pytest.fixture
def log_records():
    """Every record the functions' logger emits during the test."""
    import logging

    from tandem.observability import logger

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    logger._logger.addHandler(handler)
    yield records
    logger._logger.removeHandler(handler)


def _no_error_logged(records, stderr: str) -> bool:
    import logging

    errors = [r for r in records if r.levelno >= logging.ERROR or r.exc_info]
    return not errors and "Traceback" not in stderr


def _gateway_call(aws, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], object, str]:
    """POST the webhook through the local API Gateway as API Gateway would (a body that is not
    UTF-8 travels base64-encoded); the answer and what the function logged."""
    import base64

    from infra.local import lambda_inprocess

    try:
        body.decode("utf-8")
        event_body, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        event_body, encoded = base64.b64encode(body).decode(), True
    event = {
        "resource": "/api/stripe/webhook",
        "path": "/api/stripe/webhook",
        "httpMethod": "POST",
        "headers": {"content-type": "application/json", **headers},
        "requestContext": {"resourcePath": "/api/stripe/webhook", "httpMethod": "POST", "stage": "local"},
        "body": event_body,
        "isBase64Encoded": encoded,
    }
    result, errored, logs = lambda_inprocess.invoke(aws.functions["StripeWebhookFunction"], event)
    assert not errored, result
    return result["statusCode"], result["headers"], json.loads(result["body"]), logs


DEEP = b'{"id": "evt_deep", "type": "invoice.paid", "data": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_001
MALFORMED = {
    "not UTF-8": b'{"id": "evt_x", "type": "invoice.paid", "a": "\xff"}',
    "a JSON array": b'[{"id": "evt_x", "type": "invoice.paid"}]',
    "no type": b'{"id": "evt_x", "object": "event", "data": {"object": {"id": "in_1"}}}',
    "no id": b'{"type": "invoice.paid", "data": {"object": {"id": "in_1"}}}',
    "50,000 deep": DEEP,
    "a lone surrogate": b'{"id": "evt_x", "type": "invoice.paid", "data": {"object": {"id": "in_\\ud800"}}}',
    "not JSON": b"id=evt_x&type=invoice.paid",
    "a type that is no type": b'{"id": "evt_x", "type": {"name": "invoice.paid"}}',
}


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_body_that_is_no_stripe_event_is_a_400_without_a_traceback(aws, name, signed, log_records):
    """Verified on the raw bytes first, then read: signed or not, a body that is no event is a
    400 (never a 5xx), answered no-store, logged without a traceback, and records nothing."""
    from tandem.store.billing import StripeEvent

    body = MALFORMED[name]
    signature = _signed(body, _secret(aws)) if signed else _signed(body, "whsec_someone_else")
    status, headers, reply, logs = _gateway_call(aws, body, {"stripe-signature": signature})
    expected = "Invalid payload" if signed and name != "not UTF-8" else "Invalid signature"
    assert (status, reply) == (400, {"error": expected})
    assert headers["Cache-Control"] == "no-store"
    assert _no_error_logged(log_records, logs)
    assert [r.getMessage() for r in log_records if r.levelname == "WARNING"] == [
        "Signed Stripe webhook body is not an event"
        if expected == "Invalid payload"
        else "Stripe webhook refused"
    ]
    assert list(StripeEvent.scan()) == []


def test_a_signed_event_we_cannot_use_is_recorded_and_acknowledged_once(aws, log_records):
    from tandem.integrations.aws import client
    from tandem.store import keys
    from tandem.store.billing import StripeEvent

    body = json.dumps(
        {"id": "evt_odd", "object": "event", "type": "invoice.paid", "data": {"object": ["in_1"]}}
    ).encode()
    for _ in range(2):  # Stripe's redelivery gets the same answer; one record
        status, headers, reply, logs = _gateway_call(
            aws, body, {"stripe-signature": _signed(body, _secret(aws))}
        )
        assert (status, reply) == (200, {"received": True, "ignored": True})
        assert headers["Cache-Control"] == "no-store" and _no_error_logged(log_records, logs)
    stored = StripeEvent.get(keys.stripe_event_pk("evt_odd"), keys.META)
    assert (stored.status, stored.event_type, stored.message) == (
        "unusable",
        "invoice.paid",
        "The event has no data.object",
    )
    machine = aws.state_machines["BillingStateMachine"]
    executions = client("stepfunctions").list_executions(stateMachineArn=machine.arn)["executions"]
    assert executions == []  # nothing started for it


def test_a_signature_dated_ahead_beyond_the_tolerance_is_refused(aws):
    """The stripe library refuses a signature more than 300 s old; one dated more than 300 s
    ahead of our clock is refused too (a signed body captured and replayed later would be)."""
    from tandem.store.billing import StripeEvent

    body, secret = _event("evt_future"), _secret(aws)

    def signed_at(timestamp: int) -> str:
        signature = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
        return f"t={timestamp},v1={signature}"

    now = int(time.time())
    for timestamp in (now + 301 + 5, now + 86_400, now - 301 - 5):
        status, headers, reply, _ = _gateway_call(aws, body, {"stripe-signature": signed_at(timestamp)})
        assert (status, reply) == (400, {"error": "Invalid signature"}), timestamp
    assert list(StripeEvent.scan()) == []
    status, _, reply, _ = _gateway_call(aws, body, {"stripe-signature": signed_at(now + 240)})
    assert (status, reply) == (200, {"received": True})  # a clock a little ahead is fine
