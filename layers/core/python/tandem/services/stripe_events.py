"""Stripe webhook events: received -> started -> done (or failed); `unusable` for a signed
event we cannot process (kept with the reason, never started).

The webhook checks the signature on the raw body (`verify_signature`), then reads it
(`parse_event`).

The webhook records the event (one conditional put) and starts a billing execution, then marks
it started. A redelivery is ignored only while the event is started or once it is done: one
whose start never happened (received) or whose processing failed is started again, under a
new execution name (`<event>-<attempt>`), so no event is lost to a failed start.

Processing (the billing state machine) never trusts the event's payload or order: it finds the
account the event's customer belongs to and runs `billing.sync_account`, which re-reads
everything from Stripe. The event's customer keeps it in that customer's in-progress list
until it is done (GET users/webhooks-in-progress), and the account's users get
`lastWebhookUpdate[type]` (the payment page's update watch).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tandem.config import settings
from tandem.integrations import outages, stripe_client
from tandem.integrations.aws import client
from tandem.observability import count_event, logger
from tandem.services import billing
from tandem.store.billing import StripeEvent
from tandem.store.errors import ConditionFailed
from tandem.store.models import User, update_only

DONE = ("started", "done", "processed")  # a redelivery of these is a duplicate
RECENT = 5

# The events that can change an account's billing state (issue 12's list, plus pause/resume).
# Stripe sends many more for one payment (payment_intent.*, charge.succeeded, invoice.created,
# payment_method.attached, customer.updated, ...): each used to start an execution and a full
# sync, about ten syncs per checkout racing for the same account. Others are acknowledged and
# dropped; the webhook endpoint subscribes to these only (the local stack's too).
BILLING_EVENTS = frozenset(
    {
        "checkout.session.completed",
        "checkout.session.async_payment_succeeded",
        "checkout.session.async_payment_failed",
        "checkout.session.expired",
        "customer.subscription.created",
        "customer.subscription.updated",
        "customer.subscription.deleted",
        "customer.subscription.paused",
        "customer.subscription.resumed",
        "invoice.paid",
        "invoice.payment_failed",
        "invoice.payment_action_required",
        "charge.refunded",
    }
)


def is_billing_event(event_type: str) -> bool:
    return event_type in BILLING_EVENTS


# ---------------------------------------------------------------- the webhook's body

TOLERANCE = 300  # seconds a signature may be old, or dated ahead of our clock (Stripe's default)
EVENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,255}$")
EVENT_TYPE = re.compile(r"^[a-z0-9_.]{1,100}$")
OBJECT_ID_MAX = 255


def _signed_at(header: str) -> int | None:
    for item in header.split(","):
        name, _, value = item.partition("=")
        if name.strip() == "t":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def verify_signature(payload: bytes, header: str, secret: str, now: float | None = None) -> str | None:
    """Why the raw body is not signed by Stripe with `secret` (None when it is): the `stripe`
    library's check (HMAC of `<t>.<body>`, at most TOLERANCE s old), plus the check it leaves
    out: a signature dated more than TOLERANCE s ahead of our clock. Reads nothing of the body
    but its bytes; Stripe signs UTF-8 text, so bytes that are not UTF-8 are not signed by it."""
    import stripe

    try:
        stripe.WebhookSignature.verify_header(payload, header, secret, tolerance=TOLERANCE)
    except stripe.SignatureVerificationError as exc:
        return str(exc)[:200]
    except UnicodeDecodeError:
        return "The body is not UTF-8 text"
    signed_at = _signed_at(header)
    if signed_at is None or signed_at > (time.time() if now is None else now) + TOLERANCE:
        return "Timestamp outside the tolerance zone (in the future)"
    return None


class MalformedEvent(ValueError):
    """A body that is no Stripe event (the webhook answers 400)."""


@dataclass(frozen=True)
class ParsedEvent:
    event_id: str
    event_type: str
    object_id: str = ""
    customer: str | None = None
    unusable: str = ""  # why a well-formed event cannot be processed ("" when it can)


def parse_event(payload: bytes) -> ParsedEvent:
    """A verified body as the event it names. MalformedEvent when it is not UTF-8, not JSON,
    nested too deeply to read, not an object, holds text that is not valid Unicode (a lone
    surrogate escape), or has no usable `id` and `type`. An event whose `data.object` we cannot
    read comes back with `unusable` set: it is recorded, not processed."""
    try:
        doc = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise MalformedEvent("The body is not UTF-8 text") from None
    except RecursionError:
        raise MalformedEvent("The body is nested too deeply") from None
    except ValueError:
        raise MalformedEvent("The body is not JSON") from None
    if not isinstance(doc, dict):
        raise MalformedEvent("The body is not a JSON object")
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedEvent("The body contains text that is not valid Unicode") from None
    except RecursionError:
        raise MalformedEvent("The body is nested too deeply") from None
    event_id, event_type = doc.get("id"), doc.get("type")
    if not isinstance(event_id, str) or not EVENT_ID.match(event_id):
        raise MalformedEvent("The event has no valid id")
    if not isinstance(event_type, str) or not EVENT_TYPE.match(event_type):
        raise MalformedEvent("The event has no valid type")
    data = doc.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        return ParsedEvent(event_id, event_type, unusable="The event has no data.object")
    object_id = obj.get("id", "")
    if object_id is None:
        object_id = ""
    if not isinstance(object_id, str) or len(object_id) > OBJECT_ID_MAX:
        return ParsedEvent(event_id, event_type, unusable="The event's object has no valid id")
    return ParsedEvent(event_id, event_type, object_id, customer_of(event_type, obj))


def record_unusable(event: ParsedEvent) -> None:
    """Keep a signed event we cannot process (status `unusable`, with the reason), once: it is
    answered 2xx so Stripe stops redelivering it, and stays visible to whoever looks."""
    item = StripeEvent.new(event.event_id, event.event_type, event.object_id, None, datetime.now(UTC))
    item.customer_id = event.customer
    item.status = "unusable"
    item.message = event.unusable[:500]
    item.put_new()  # kept once: a redelivery finds it there


class StripeTemporaryError(Exception):
    """Stripe could not be reached or asked us to slow down: the state machine retries."""


def customer_of(event_type: str, obj: Any) -> str | None:
    """The Stripe customer an event is about (its object's `customer`, or the object itself)."""
    getter = obj.get if hasattr(obj, "get") else lambda key, default=None: getattr(obj, key, default)
    if str(getter("object", "")) == "customer":
        found = getter("id", None)
    else:
        found = getter("customer", None)
        if found is not None and not isinstance(found, str):
            found = getattr(found, "id", None) or (found.get("id") if hasattr(found, "get") else None)
    usable = isinstance(found, str) and found.startswith("cus_") and len(found) <= OBJECT_ID_MAX
    return found if usable else None


def receive(event_id: str, event_type: str, object_id: str, customer_id: str | None) -> bool:
    """Record the event and start its processing. False when it is a duplicate (started or
    done already). Two DynamoDB calls for a new event: the put, the mark."""
    now = datetime.now(UTC)
    item = StripeEvent.new(event_id, event_type, object_id, customer_id, now)
    attempt = 0
    if not item.put_new():
        held = StripeEvent.find(event_id, consistent=True)
        if held is None or held.status in DONE:
            return False
        attempt = int(held.attempts or 0)
        logger.info("Stripe event redelivered before it was processed: starting it again")
    start_processing(event_id, event_type, object_id, attempt)
    try:
        update_only(
            StripeEvent,
            StripeEvent.key(event_id),
            actions=[
                StripeEvent.status.set("started"),
                StripeEvent.attempts.set(attempt + 1),
                *StripeEvent.leave_retry_list(),
            ],
            # not over a failure of this very attempt that was quicker than this mark
            condition=StripeEvent.status.is_in("received", "failed")
            & (StripeEvent.failed_attempt.does_not_exist() | (StripeEvent.failed_attempt < attempt)),
        )
    except ConditionFailed:
        pass  # processing finished before this mark: nothing to do
    # (any other failure: the webhook answers 500 and Stripe redelivers; the event is still 'received')
    count_event("StripeEventReceived")
    return True


def replay(event_id: str) -> str:
    """Process one event again (make replay-stripe-event, make redrive WHAT=billing): one whose
    processing failed or whose start was lost starts a new attempt, one never recorded (the
    endpoint was down past Stripe's retries) is fetched from Stripe and received. Idempotent: an
    event started or done already is left alone. Returns what happened."""
    held = StripeEvent.find(event_id, consistent=True)
    if held is not None and held.status in DONE:
        return f"{event_id}: {held.status} already, left alone"
    if held is None:
        event = stripe_client.get_event(event_id)
        if not is_billing_event(event["type"]):
            return f"{event_id}: {event['type']} does not change billing, nothing to replay"
        obj = event["data"]["object"]
        receive(event_id, event["type"], str(obj.get("id", "")), customer_of(event["type"], obj))
        return f"{event_id}: fetched from Stripe and started"
    receive(event_id, held.event_type, held.object_id, held.customer_id)  # starts attempt `attempts`
    return f"{event_id}: {held.status} -> started again (attempt {int(held.attempts or 0) + 1})"


def execution_name(event_id: str, attempt: int) -> str:
    return event_id if attempt == 0 else f"{event_id}-{attempt}"


def start_processing(event_id: str, event_type: str, object_id: str, attempt: int = 0) -> None:
    sfn = client("stepfunctions")
    try:
        sfn.start_execution(
            stateMachineArn=settings().require("billing_state_machine_arn"),
            name=execution_name(event_id, attempt),
            input=json.dumps(
                {"eventId": event_id, "type": event_type, "objectId": object_id, "attempt": attempt}
            ),
        )
    except sfn.exceptions.ExecutionAlreadyExists:
        # the same attempt was started before its mark was written: start the next one
        sfn.start_execution(
            stateMachineArn=settings().require("billing_state_machine_arn"),
            name=execution_name(event_id, attempt + 1),
            input=json.dumps(
                {"eventId": event_id, "type": event_type, "objectId": object_id, "attempt": attempt}
            ),
        )


def process(event_id: str, event_type: str, object_id: str) -> dict[str, Any]:
    """The billing state machine's task: sync the account the event's customer belongs to."""
    try:
        held = StripeEvent.find(event_id, consistent=True)
        customer = held.customer_id if held else None
        account_id = billing.account_of_customer(customer) if customer else None
        if account_id is None and event_type.startswith("checkout.session.") and object_id.startswith("cs_"):
            account_id = billing.adopt_checkout_customer(stripe_client.get_checkout_session(object_id))
        state = billing.sync_account(account_id) if account_id else None
        if state is not None:
            count_event("StripeSync")
    except Exception as exc:
        # Stripe unreachable, rate limited or failing on its side, DynamoDB throttled past its
        # retries: the state machine retries (StripeTemporaryError), then the scheduled retry.
        if outages.is_stripe_temporary(exc) or outages.is_aws_throttling(exc):
            raise StripeTemporaryError(f"{type(exc).__name__}: {str(exc)[:200]}") from None
        raise
    now = datetime.now(UTC)
    if account_id:
        stamp = now.isoformat().replace("+00:00", "Z")
        for user in User.of_account(account_id):
            update_only(
                User, User.key(user.user_id), actions=[User.last_webhook_update[event_type].set(stamp)]
            )
    update_only(StripeEvent, StripeEvent.key(event_id), actions=StripeEvent.done_actions(customer, now))
    count_event("StripeEventProcessed")
    if event_type == "charge.refunded":
        count_event("StripeRefund")
    return {
        "eventId": event_id,
        "status": "done",
        "account": account_id,
        "billing": state.status if state else None,
    }


# An event we could not process is taken again by the retry-failed-stripe-events job (every 15
# minutes), after these delays by the number of the attempt that failed, for as long as Stripe
# itself retries a webhook (3 days after we received it); after that it stays failed, the
# billing state machine's alarm has fired, and `make redrive WHAT=billing` brings it back.
RETRY_DELAYS = (300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600)
RETRY_FOR = 3 * 86400


def retry_delay(attempt: int) -> int:
    return RETRY_DELAYS[min(max(int(attempt), 0), len(RETRY_DELAYS) - 1)]


def mark_failed(event_id: str, reason: str, attempt: int = 0) -> dict[str, Any]:
    retry_at = datetime.now(UTC) + timedelta(seconds=retry_delay(attempt))
    update_only(
        StripeEvent, StripeEvent.key(event_id), actions=StripeEvent.failed_actions(reason, attempt, retry_at)
    )
    count_event("StripeEventFailed")
    return {"eventId": event_id, "status": "failed", "retryAt": retry_at.isoformat()}


def retry_failed(now: int | None = None) -> dict[str, Any]:
    """The retry-failed-stripe-events job: every failed event whose retry is due is started
    again (`replay`: idempotent, an event done or started since is left alone, and processing
    re-reads everything from Stripe, so a retry never grants twice); one received more than
    RETRY_FOR ago leaves the list and waits for `make redrive`. One Query, then per event the
    replay's reads and writes."""
    at = datetime.fromtimestamp(now, UTC) if now is not None else datetime.now(UTC)
    retried, gave_up, left = 0, 0, 0
    for event in StripeEvent.due_for_retry(at):
        if event.status != "failed":
            update_only(StripeEvent, StripeEvent.key(event.event_id), actions=StripeEvent.leave_retry_list())
            left += 1
            continue
        if (at - event.received_at).total_seconds() > RETRY_FOR:
            update_only(StripeEvent, StripeEvent.key(event.event_id), actions=StripeEvent.leave_retry_list())
            logger.warning("Stripe event still failing after 3 days: left for make redrive")
            gave_up += 1
            continue
        replay(event.event_id)
        retried += 1
    if retried:
        count_event("StripeEventRetried", retried)
    return {"retried": retried, "gaveUp": gave_up, "leftAlone": left}


def in_progress(customers: list[str]) -> dict[str, Any]:
    """GET users/webhooks-in-progress: events of the account's customers not processed yet,
    and the last five processed."""
    count = sum(StripeEvent.pending_count(c) for c in customers)
    recent: list[StripeEvent] = []
    for customer in customers:
        recent += StripeEvent.recent_done(customer, RECENT)
    recent.sort(key=lambda e: e.done_at or e.received_at, reverse=True)
    return {
        "count": count,
        "recent": [
            {"type": e.event_type, "at": (e.done_at or e.received_at).isoformat().replace("+00:00", "Z")}
            for e in recent[:RECENT]
        ],
    }
