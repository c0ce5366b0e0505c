"""Emails go on the notifications queue; the notifier delivers them through SES."""

from __future__ import annotations

import json

from tandem.config import settings
from tandem.integrations.aws import client


def link(path: str) -> str:
    return f"{settings().site_url}{path}"


def enqueue(message: dict) -> None:
    """Put one notification on the queue (functions/notifier delivers it)."""
    client("sqs").send_message(QueueUrl=settings().notifications_queue_url, MessageBody=json.dumps(message))


def send(to: str, subject: str, text: str) -> None:
    enqueue({"channel": "email", "to": to, "subject": subject, "text": text})


def send_to_account(account_id: str, subject: str, text: str, reply_to: str | None = None) -> None:
    """An email to every user of an account; the notifier looks the addresses up."""
    message = {"channel": "email", "toAccount": account_id, "subject": subject, "text": text}
    if reply_to:
        message["replyTo"] = reply_to
    enqueue(message)
