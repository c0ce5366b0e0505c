"""The emails requests send, and the signed quick-action links in them. Emails go on the
notifications queue (tandem.services.mailer); a queue failure never undoes a change."""

from __future__ import annotations

import time

from tandem.config import settings
from tandem.domain import requests as rules
from tandem.integrations.aws import get_secret
from tandem.observability import logger
from tandem.services import mailer
from tandem.services.requests.present import brand_json, raw_contact
from tandem.store.models import ConnectionRequest, CreditHold


def link_key() -> bytes:
    return rules.quick_action_key(get_secret(settings().jwt_secret_name))


def quick_action_links(req: ConnectionRequest, now: int | None = None) -> dict[str, str]:
    now = int(now if now is not None else time.time())
    expires = now + rules.QUICK_ACTION_DAYS * 86400
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


def _contact_lines(contact: dict | None) -> str:
    contact = raw_contact(contact) or {}
    lines = [
        f"{label}: {contact[k]}"
        for k, label in (("name", "Name"), ("email", "Email"), ("phone", "Phone"))
        if contact.get(k)
    ]
    return "\n".join(lines) or "(They haven't added contact details yet; reply through Tandem.)"


def mail_received(req: ConnectionRequest) -> None:
    sender = brand_json(req.from_brand, visible=False)["name"]
    recipient = req.to_brand.name
    links = quick_action_links(req)
    view_link = mailer.link(f"/requests/received/{int(req.to_brand_id)}/{req.request_id}")
    text = (
        f"Hi,\n\n{sender} would like to collaborate with {recipient} and sent you this message:\n\n"
        f'"{req.message}"\n\n'
        f"Accept (you'll both get each other's contact details): {links['accept']}\n"
        f"Decline (we'll send them a polite reply): {links['decline']}\n\n"
        f"See the request in Tandem: {view_link}\n\n"
        f"The two links above work once and expire in {rules.QUICK_ACTION_DAYS} days.\n\nThe Tandem team"
    )
    deliver(req.to_account_id, f"{sender} would like to collaborate with {recipient}", text)


def mail_after(req: ConnectionRequest, action: str) -> None:
    sender, recipient = req.from_brand.name, req.to_brand.name
    sender_id, recipient_id = int(req.from_brand_id), int(req.to_brand_id)
    if action == "accept":
        deliver(
            req.from_account_id,
            f"{recipient} accepted your request",
            f"Good news: {recipient} accepted the connection request from {sender}.\n\n"
            f"Their contact details:\n{_contact_lines(req.to_contact)}\n\n"
            f"See your connections: {mailer.link(f'/connections/{sender_id}/{recipient_id}')}\n\n"
            "The Tandem team",
        )
        deliver(
            req.to_account_id,
            f"You're connected with {sender}",
            f"You accepted the connection request from {sender}. Here are their contact details:\n"
            f"{_contact_lines(req.from_contact)}\n\n"
            f"See your connections: {mailer.link(f'/connections/{recipient_id}/{sender_id}')}\n\n"
            "The Tandem team",
        )
    elif action == "decline":
        credit_note = (
            "Your credit has been returned."
            if _hold_status(req) == "released"
            else "The credit was not returned because the request's subscription month had ended."
        )
        hidden = brand_json(req.to_brand, visible=False)["name"]
        deliver(
            req.from_account_id,
            f"{hidden} declined your request",
            f"{hidden} declined the connection request from {sender}. {credit_note}\n\n"
            f"See your declines: {mailer.link(f'/declines/out/{int(req.from_brand_id)}')}\n\nThe Tandem team",
        )
        deliver(
            req.from_account_id,
            f"A reply from {hidden}",
            f"{hidden} replied to the connection request from {sender}:\n\n"
            f'"{req.reply or rules.DEFAULT_REPLY}"\n\n(Sent by Tandem on their behalf.)',
        )


def _hold_status(req: ConnectionRequest) -> str:
    held = CreditHold.find(req.from_account_id, req.request_id)
    return held.status if held is not None else "none"


def deliver(account_id: str, subject: str, text: str) -> None:
    """Emails never undo a change that happened: a queue failure is logged, not raised."""
    try:
        mailer.send_to_account(account_id, subject, text)
    except Exception:  # noqa: BLE001
        logger.exception("Could not queue a request email", extra={"subject": subject})
