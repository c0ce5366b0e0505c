"""The emails requests send, and the signed quick-action links in them. Emails go on the
notifier (tandem.services.notify); a queue failure never undoes a change."""

from __future__ import annotations

import time

from tandem.config import settings
from tandem.domain import requests as rules
from tandem.domain.identity import INTRODUCED
from tandem.integrations.aws import get_secret
from tandem.observability import logger
from tandem.services import mailer, notify
from tandem.services.requests.present import brand_json, raw_contact
from tandem.store.models import CreditHold
from tandem.store.requests import ConnectionRequest


def link_key() -> bytes:
    return rules.quick_action_key(get_secret(settings().jwt_secret_name))


def quick_action_links(
    req: ConnectionRequest, now: int | None = None, until: int | None = None
) -> dict[str, str]:
    now = int(now if now is not None else time.time())
    expires = now + rules.QUICK_ACTION_DAYS * 86400
    if until is not None:  # a reminder's links end with the request
        expires = min(expires, int(until))
    key = link_key()
    return {
        action: mailer.link(
            rules.quick_action_path(
                key,
                rules.QuickAction(
                    action, int(req.to_brand_id), int(req.from_brand_id), req.request_id, expires
                ),
            )
        )
        for action in rules.QUICK_ACTIONS
    }


def mail_received(req: ConnectionRequest) -> None:
    sender = brand_json(req.from_brand, INTRODUCED)["name"]
    recipient = req.to_brand.name
    links = quick_action_links(req)
    view_path = f"/requests/received/{int(req.to_brand_id)}/{req.request_id}"
    deliver(
        req.to_account_id,
        "requests_received",
        "request_received",
        {
            "sender_brand": sender,
            "recipient_brand": recipient,
            "message": req.message,
            "accept_url": links["accept"],
            "decline_url": links["decline"],
            "view_url": mailer.link(view_path),
            "link_days": rules.QUICK_ACTION_DAYS,
            "sign_in": {"key": "view_url", "path": view_path, "status": "request-received"},
        },
        {
            "title": f"{sender} would like to collaborate with {recipient}",
            "body": req.message,
            "url": view_path,
        },
        req.request_id,
    )


def mail_pitch(req: ConnectionRequest) -> None:
    """A pitch reaches the feature's owner (template pitch_received): their received request."""
    sender = brand_json(req.from_brand, INTRODUCED)["name"]
    view_path = f"/requests/received/{int(req.to_brand_id)}/{req.request_id}"
    title = (req.pitch.as_dict() if hasattr(req.pitch, "as_dict") else dict(req.pitch or {})).get("title")
    deliver(
        req.to_account_id,
        "pitches_received",
        "pitch_received",
        {
            "pitcher_brand": sender,
            "brand": req.to_brand.name,
            "feature_title": title,
            "message": req.message,
            "pitch_url": mailer.link(view_path),
        },
        {
            "title": f"{sender} pitched to collaborate with {req.to_brand.name}",
            "body": req.message,
            "url": view_path,
        },
        req.request_id,
    )


def mail_after(req: ConnectionRequest, action: str) -> None:
    sender, recipient = req.from_brand.name, req.to_brand.name
    sender_id, recipient_id = int(req.from_brand_id), int(req.to_brand_id)
    if action == "accept":
        path = f"/connections/{sender_id}/{recipient_id}"
        deliver(
            req.from_account_id,
            "request_accepted",
            "request_accepted",
            {
                "other_brand": recipient,
                "own_brand": sender,
                "contact": raw_contact(req.to_contact) or {},
                "connection_url": mailer.link(path),
                "sign_in": {"key": "connection_url", "path": path, "status": "request-accepted"},
            },
            {
                "title": f"{recipient} accepted your request",
                "body": "See their contact details.",
                "url": path,
            },
            req.request_id,
        )
        path = f"/connections/{recipient_id}/{sender_id}"
        deliver(
            req.to_account_id,
            "request_accepted",
            "connection_made",
            {
                "other_brand": sender,
                "own_brand": recipient,
                "contact": raw_contact(req.from_contact) or {},
                "connection_url": mailer.link(path),
                "sign_in": {"key": "connection_url", "path": path, "status": "request-accepted"},
            },
            {"title": f"You're connected with {sender}", "body": "See their contact details.", "url": path},
            req.request_id,
        )
    elif action == "decline":
        returned = _hold_status(req) == "released"
        hidden = brand_json(req.to_brand, INTRODUCED)["name"]
        path = f"/declines/out/{sender_id}"
        deliver(
            req.from_account_id,
            "request_declined",
            "request_declined",
            {
                "other_brand": hidden,
                "own_brand": sender,
                "credit_returned": returned,
                "reply": req.reply or rules.DEFAULT_REPLY,
                "declines_url": mailer.link(path),
            },
            {
                "title": f"{hidden} declined your request",
                "body": "Your credit has been returned." if returned else (req.reply or rules.DEFAULT_REPLY),
                "url": path,
            },
            req.request_id,
        )


def mail_reminder(req: ConnectionRequest, now: int) -> None:
    """The recipient is reminded of a request still waiting (day 3 and day 10), with the same
    one-click Accept and Decline links as the request email (source requests_received)."""
    sender = brand_json(req.from_brand, INTRODUCED)["name"]
    recipient = req.to_brand.name
    expires = int(req.expires_at or now)
    links = quick_action_links(req, now, until=expires)
    days_left = rules.expires_in_days(expires, now)
    view_path = f"/requests/received/{int(req.to_brand_id)}/{req.request_id}"
    deliver(
        req.to_account_id,
        "requests_received",
        "request_reminder",
        {
            "sender_brand": sender,
            "recipient_brand": recipient,
            "message": req.message,
            "days_left": days_left,
            "accept_url": links["accept"],
            "decline_url": links["decline"],
            "view_url": mailer.link(view_path),
            "sign_in": {"key": "view_url", "path": view_path, "status": "request-received"},
        },
        {
            "title": f"{sender} is waiting for your answer",
            "body": f"The request expires in {days_left} days.",
            "url": view_path,
        },
        req.request_id,
    )


def mail_expired(req: ConnectionRequest, credit_returned: bool | None = None) -> None:
    """The sender learns its request expired unanswered, and whether its credit is back
    (source request_declined). `credit_returned` None: read the hold to know."""
    if credit_returned is None:
        credit_returned = _hold_status(req) == "released"
    hidden = brand_json(req.to_brand, INTRODUCED)["name"]
    path = f"/declines/out/{int(req.from_brand_id)}"
    title = f"{hidden} didn't reply in {rules.EXPIRY_DAYS} days" + (
        "; your credit is back" if credit_returned else ""
    )
    deliver(
        req.from_account_id,
        "request_declined",
        "request_expired",
        {
            "other_brand": hidden,
            "own_brand": req.from_brand.name,
            "days": rules.EXPIRY_DAYS,
            "credit_returned": credit_returned,
            "declines_url": mailer.link(path),
        },
        {"title": title, "body": "The request has expired.", "url": path},
        req.request_id,
    )


def _hold_status(req: ConnectionRequest) -> str:
    held = CreditHold.find(req.from_account_id, req.request_id)
    return held.status if held is not None else "none"


def deliver(
    account_id: str, source: str, template: str, context: dict, push: dict, subject: str | None = None
) -> None:
    """Through the one notifier path (tandem.services.notify), which reads every member's
    settings. Notifications never undo a change that happened: a queue failure is logged."""
    try:
        notify.notify(
            account_id=account_id,
            source=source,
            template=template,
            context=context,
            push=push,
            subject=subject,
        )
    except Exception:
        logger.exception("Could not queue a request notification", extra={"template": template})
