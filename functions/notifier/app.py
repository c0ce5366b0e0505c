"""Notifications queue consumer: each SQS message is one notification to deliver.

Message: {"channel": "email", "to": "..." | "toAccount": "<account id>", "subject": "...", "text": "...",
"html"?: "...", "replyTo"?: "..."}.
Or {"channel": "password-link", "purpose": "reset-password" | "create-password", "email": "..."}:
forgot / setup password queue these so the API answers alike for every address; the link is
issued here and mailed only when the address has an account (tandem.services.auth).
Or {"channel": "notify", ...}: a notification of a source members choose channels for, delivered
by tandem.services.notify (the member's settings: email from templates, browser push), and
{"channel": "push-retry", ...}: one browser's push the push service asked to retry later.
A notification's channels are delivered one by one and each is recorded once settled: when one
fails the message fails and comes back, and only the channels not recorded are tried again (a
push that keeps failing never repeats the email).
Failed messages are reported back individually (partial batch response) and end in the DLQ
after the queue's maxReceiveCount. Unknown channels fail with a clear reason rather than being
dropped silently.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from tandem.config import settings
from tandem.integrations.aws import client
from tandem.observability import count_event, lambda_handler, logger
from tandem.services import email_events, notify
from tandem.services.auth import password_link_email
from tandem.store.models import User

settings()  # checked at import: a missing variable fails here, with its name

processor = BatchProcessor(event_type=EventType.SQS)


class UnsupportedChannel(Exception):
    pass


def _addresses(message: dict[str, Any]) -> list[str]:
    """`to`, or with `toAccount` every user of that account (brand emails: requests)."""
    if message.get("to"):
        return [message["to"]]
    return sorted({user.email for user in User.of_account(message["toAccount"]) if user.email})


def _send_email(message: dict[str, Any]) -> None:
    body: dict[str, Any] = {"Text": {"Data": message["text"], "Charset": "UTF-8"}}
    if message.get("html"):
        body["Html"] = {"Data": message["html"], "Charset": "UTF-8"}
    addresses = [a for a in _addresses(message) if not email_events.is_suppressed(a)]
    if not addresses:
        logger.info("Email has no recipient to send to", extra={"subject": message["subject"]})
        return
    extra: dict[str, Any] = {"ReplyToAddresses": [message["replyTo"]]} if message.get("replyTo") else {}
    if settings().ses_configuration_set:  # its bounces and complaints mark the addresses
        extra["ConfigurationSetName"] = settings().ses_configuration_set
    client("ses").send_email(
        Source=settings().mail_from,
        Destination={"ToAddresses": addresses},
        Message={"Subject": {"Data": message["subject"], "Charset": "UTF-8"}, "Body": body},
        **extra,
    )
    count_event("NotificationSentEmail")


def deliver(record: SQSRecord) -> None:
    message = json.loads(record.body)
    channel = message.get("channel")
    if channel == "email":
        _send_email(message)
    elif channel == "password-link":
        email = password_link_email(message["purpose"], message["email"])
        if email is not None:
            _send_email(email)
    elif channel == "notify":
        notify.deliver(message, record.message_id)
    elif channel == "push-retry":
        notify.deliver_push_retry(message, record.message_id)
    else:
        raise UnsupportedChannel(f"No delivery for channel {channel!r} yet")


@lambda_handler
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    try:
        result = process_partial_response(
            event=event, record_handler=deliver, processor=processor, context=context
        )
    except BatchProcessingError:  # every message failed: the whole batch is retried
        count_event("NotificationFailed", len(event.get("Records", [])))
        raise
    if result.get("batchItemFailures"):  # retried, then the DLQ after the queue's maxReceiveCount
        count_event("NotificationFailed", len(result["batchItemFailures"]))
    return result
