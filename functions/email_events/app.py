"""SES bounce and complaint events, delivered by SNS (template.yaml EmailEventsTopic): the
addresses are marked so the notifier never mails them again (tandem.services.email_events).
A failure raises, so SNS retries the delivery."""

from __future__ import annotations

from typing import Any

from tandem.config import settings
from tandem.observability import lambda_handler
from tandem.services import email_events

settings()  # checked at import: a missing variable fails here, with its name


@lambda_handler
def handler(event: dict[str, Any], context: Any) -> dict[str, int]:
    marked = 0
    for record in event.get("Records", []):
        marked += email_events.handle_sns_message(record["Sns"]["Message"])
    return {"suppressed": marked}
