"""SES bounce and complaint events (configuration set -> SNS -> functions/email_events): an
address that bounced for good, or whose owner marked our mail as spam, is never mailed again
(tandem.store.notify.SuppressedAddress; the notifier checks it before every send).

SES publishes two shapes: configuration-set event publishing (`eventType`) and identity
notifications (`notificationType`); both are read. A transient bounce (mailbox full, out of
office) suppresses nothing: SES already retried it and the next message may well arrive.
"""

from __future__ import annotations

import json
import time
from typing import Any

from tandem.observability import logger
from tandem.store.notify import SuppressedAddress

BOUNCE, COMPLAINT = "bounce", "complaint"


def addresses_to_suppress(event: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(address, reason, detail) for every recipient the SES event says not to mail again."""
    kind = str(event.get("eventType") or event.get("notificationType") or "").lower()
    if kind == BOUNCE:
        bounce = event.get("bounce") or {}
        if bounce.get("bounceType") != "Permanent":
            return []
        detail = f"{bounce.get('bounceType')}/{bounce.get('bounceSubType', '')}"
        return [
            (r["emailAddress"], BOUNCE, f"{detail} {r.get('diagnosticCode', '')}".strip())
            for r in bounce.get("bouncedRecipients") or []
            if r.get("emailAddress")
        ]
    if kind == COMPLAINT:
        complaint = event.get("complaint") or {}
        detail = str(complaint.get("complaintFeedbackType") or "")
        return [
            (r["emailAddress"], COMPLAINT, detail)
            for r in complaint.get("complainedRecipients") or []
            if r.get("emailAddress")
        ]
    return []


def handle_sns_message(message: str, now: int | None = None) -> int:
    """One SNS message's body (an SES event as JSON). Returns how many addresses were marked."""
    try:
        event = json.loads(message)
    except ValueError:
        logger.warning("An email event that is not JSON was ignored")
        return 0
    if not isinstance(event, dict):
        return 0
    marked = 0
    for address, reason, detail in addresses_to_suppress(event):
        SuppressedAddress.add(address, reason, detail, int(time.time()) if now is None else now)
        logger.info("Address suppressed", extra={"reason": reason})  # never the address itself
        marked += 1
    return marked


def is_suppressed(address: str) -> bool:
    return SuppressedAddress.is_suppressed(address)
