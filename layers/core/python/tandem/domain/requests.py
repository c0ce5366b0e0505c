"""Connection-request rules with no I/O: states, who may do what, boxes, quick-action links.

A request is sent (pending; awaiting_approval while the sender's subscription awaits approval),
then accepted or declined by the recipient, cancelled by the sender, or expires unanswered
EXPIRY_DAYS after it became pending (the scheduler's expire-requests job; like a decline).
Only a pending request can be accepted, declined or expired; a pending or awaiting one can be
cancelled. Every transition is a conditional write on the old status, so of two racing
changes exactly one wins.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime

from tandem.domain import relations as rel
from tandem.domain.ids import parse_id

AWAITING = "awaiting_approval"
PENDING = "pending"
ACCEPTED = "accepted"
DECLINED = "declined"
CANCELLED = "cancelled"
EXPIRED = "expired"
STATUSES = (AWAITING, PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED)

MESSAGE_MAX = 1000
REPLY_MAX = 1000
PAGE_SIZE = 20

# Which statuses each action may start from, and where it goes.
TRANSITIONS = {
    "accept": ((PENDING,), ACCEPTED),
    "decline": ((PENDING,), DECLINED),
    "cancel": ((PENDING, AWAITING), CANCELLED),
    "expire": ((PENDING,), EXPIRED),  # the scheduler, never a member (no ACTOR)
}
# Who may do it: the request's recipient or its sender.
ACTOR = {"accept": "recipient", "decline": "recipient", "cancel": "sender"}

# The box each status sits in, per side (keys.box_sk). The recipient never sees a request that
# still awaits the sender's subscription approval.
RECEIVED_BOX = {
    AWAITING: "AWAITING",
    PENDING: "PENDING",
    ACCEPTED: "CONNECTED",
    DECLINED: "DECLINED",
    CANCELLED: "CANCELLED",
    EXPIRED: "DECLINED",  # both sides' Declines, shown as "Expired"
}
# The sender's open box also keeps the requests it cancelled (status 'cancelled'): its record
# of them in Requests sent (docs/decisions.md). The recipient never lists a cancelled request.
SENT_BOX = {**RECEIVED_BOX, AWAITING: "PENDING", CANCELLED: "PENDING"}

# Brand-pair relation states (tandem.domain.relations) after each status: (sender, recipient).
RELATION_STATES = {
    AWAITING: (rel.REQUESTED_OUT, None),  # the recipient learns of it on approval
    PENDING: (rel.REQUESTED_OUT, rel.REQUESTED_IN),
    ACCEPTED: (rel.CONNECTED, rel.CONNECTED),
    DECLINED: (rel.DECLINED_OUT, rel.DECLINED_IN),
    CANCELLED: (rel.CANCELLED, rel.CANCELLED),
    EXPIRED: (rel.DECLINED_OUT, rel.DECLINED_IN),
}

ALREADY_SENT = "You have already sent a request to this brand"
ALREADY_CONNECTED = "You are already connected"
ALREADY_RECEIVED = "This brand has already sent you a request. You can accept it in Requests."
OWN_BRAND = "You can't send a request to your own brand"
MESSAGE_REQUIRED = "This field is required"
MESSAGE_TOO_LONG = f"Your message can be at most {MESSAGE_MAX} characters"
REPLY_TOO_LONG = f"Your reply can be at most {REPLY_MAX} characters"

NOT_PENDING = {
    ACCEPTED: "This request was already accepted.",
    DECLINED: "This request was already declined.",
    CANCELLED: "This request was cancelled by the brand that sent it.",
    PENDING: "This request is still waiting for an answer.",
    AWAITING: "This request is waiting for the sender's subscription to be approved.",
    EXPIRED: "This request expired: it wasn't answered within 14 days.",
}

DEFAULT_REPLY = (
    "Thank you for reaching out and for thinking of us. We've had a look and it isn't the right "
    "fit for us at the moment, but we wish you every success with your collaborations."
)


def clean_message(raw: object, *, required: bool = True, limit: int = MESSAGE_MAX) -> str:
    """A request message or reply: text, trimmed, 1..limit characters (or empty when optional)."""
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise ValueError("This must be text")
    text = raw.strip()
    if not text and required:
        raise ValueError(MESSAGE_REQUIRED)
    if len(text) > limit:
        raise ValueError(MESSAGE_TOO_LONG if limit == MESSAGE_MAX else REPLY_TOO_LONG)
    return text


def conflict_for(sender_state: str | None, recipient_state: str | None) -> str | None:
    """Why a new request from sender to recipient is refused (relation states as each side
    records them), or None when it may be sent."""
    sender, recipient = sender_state or rel.NONE, recipient_state or rel.NONE
    if rel.CONNECTED in (sender, recipient):
        return ALREADY_CONNECTED
    if sender == rel.REQUESTED_OUT or recipient == rel.REQUESTED_IN:
        return ALREADY_SENT
    if sender == rel.REQUESTED_IN or recipient == rel.REQUESTED_OUT:
        return ALREADY_RECEIVED
    return None


# ---------------------------------------------------------------- re-sending after a close

# A cancelled request returns its credit (SPEC) and every send emails the recipient, so
# send -> cancel -> send would flood a brand's inbox for free. After the sender cancels a
# request, or the recipient declines it, the same sender may ask that brand again only from
# the start (UTC) of the day RESEND_DAYS after the close. The other brand may still ask.
RESEND_DAYS = 30
CLOSING = ("decline", "cancel", "expire")
DAY = 86400


# Why a request was cancelled, when its sender did not cancel it (stored on the request, read
# by the sender's Sent list). UNAVAILABLE: the recipient blocked the sender or the team
# suspended the recipient; the sender is told the same words for both, so a block stays silent.
# SUSPENDED: the team suspended the sender's own brand. Neither starts the sender's wait: a
# wait follows only what the two members did (the sender's cancel, which includes a sender
# blocking the brand it wrote to; the recipient's decline; the recipient letting it expire).
UNAVAILABLE = "unavailable"
SUSPENDED = "suspended"
CANCEL_CAUSES = (UNAVAILABLE, SUSPENDED)


def starts_wait(action: str, cause: str | None = None) -> bool:
    """Whether closing a request by `action` (for `cause`) makes its sender wait RESEND_DAYS
    before asking that brand again."""
    return action in CLOSING and cause is None


def resend_at(closed_at: int) -> int:
    """Epoch seconds from which the sender of a request closed at `closed_at` may ask again:
    midnight UTC starting the day RESEND_DAYS after the close (the date the message names)."""
    return (int(closed_at) // DAY + RESEND_DAYS) * DAY


def resend_date(at: int) -> str:
    """'22 Dec 2026' (UTC)."""
    day = datetime.fromtimestamp(int(at), UTC)
    return f"{day.day} {day:%b %Y}"


def resend_refusal(name: str, allowed_from: int | None, now: int) -> str | None:
    """Why the sender may not ask the brand it sees as `name` again yet, or None. `allowed_from`
    is what resend_at gave when the sender's last request to it was closed (None: never)."""
    if allowed_from is None or int(now) >= int(allowed_from):
        return None
    return f"You can send {name} a new request from {resend_date(allowed_from)}."


def can(action: str, status: str) -> bool:
    starts, _ = TRANSITIONS[action]
    return status in starts


def refusal(action: str, status: str) -> str:
    """The message for an action that is no longer possible from `status`."""
    if action == "cancel" and status in (ACCEPTED, DECLINED, EXPIRED):
        return NOT_PENDING[status] + " It can no longer be cancelled."
    return NOT_PENDING.get(status, "This request can no longer be changed.")


# ---------------------------------------------------------------- expiry and reminders

# A pending request nobody answers expires EXPIRY_DAYS after it became pending (its credit is
# returned as on a decline); its recipient is reminded on the REMINDER_DAYS before that.
EXPIRY_DAYS = 14
REMINDER_DAYS = (3, 10)
# The steps of a pending request's schedule, in order (store: the sparse due index, keys.py).
REMIND = "remind-"  # + the day
EXPIRE = "expire"
MAIL_EXPIRED = "mail-expired"  # expired; the sender's email still to queue


def expires_at(pending_since: int) -> int:
    """Epoch seconds at which a request pending since `pending_since` expires."""
    return int(pending_since) + EXPIRY_DAYS * DAY


def first_step(pending_since: int) -> tuple[str, int]:
    """The first (step, due epoch s) of a request that became pending at `pending_since`."""
    return f"{REMIND}{REMINDER_DAYS[0]}", int(pending_since) + REMINDER_DAYS[0] * DAY


def step_after(step: str, pending_since: int) -> tuple[str, int]:
    """The (step, due epoch s) that follows `step` for a request pending since then."""
    if step.startswith(REMIND):
        day = int(step[len(REMIND) :])
        later = [d for d in REMINDER_DAYS if d > day]
        if later:
            return f"{REMIND}{later[0]}", int(pending_since) + later[0] * DAY
    return EXPIRE, expires_at(pending_since)


def reminder_day(step: str) -> int | None:
    return int(step[len(REMIND) :]) if step.startswith(REMIND) else None


def expires_in_days(expires: int, now: int) -> int:
    """Whole days left, rounded up ("Expires in 3 days"); 0 once due."""
    left = int(expires) - int(now)
    return max(0, -(-left // DAY))


# ---------------------------------------------------------------- quick-action links

QUICK_ACTIONS = ("accept", "decline")
QUICK_ACTION_DAYS = 14
LINK_INVALID = "This link is not valid. Please sign in to answer the request."
LINK_EXPIRED = "This link has expired. Please sign in to answer the request."


@dataclass(frozen=True)
class QuickAction:
    action: str
    actioner: int  # the recipient brand
    actionee: int  # the sender brand
    request_id: str
    expires: int  # epoch seconds


def _signature(key: bytes, qa: QuickAction) -> str:
    message = f"quick-action|{qa.action}|{qa.actioner}|{qa.actionee}|{qa.request_id}|{qa.expires}"
    digest = hmac.new(key, message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def quick_action_key(secret: str) -> bytes:
    """A key of its own for links, derived from the app's signing secret."""
    return hmac.new(secret.encode(), b"tandem quick-action links v1", hashlib.sha256).digest()


def sign_quick_action(key: bytes, qa: QuickAction) -> str:
    """The link's `{unique}` part: request id, expiry and signature, joined by '-' (never '.':
    a last path segment with a dot is served as a file, not the app, by CloudFront and locally)."""
    return f"{qa.request_id}-{qa.expires}-{_signature(key, qa)}"


def quick_action_path(key: bytes, qa: QuickAction) -> str:
    return f"/quick-action/{qa.action}/{qa.actioner}/{qa.actionee}/{sign_quick_action(key, qa)}"


class LinkError(ValueError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


LINK_DIGITS = 20  # brand ids and the expiry (epoch seconds) in a link


def verify_quick_action(
    key: bytes, action: str, actioner: str, actionee: str, unique: str, now: int
) -> QuickAction:
    """The link's action if it is genuine and not expired; LinkError (400 forged, 410 expired)."""
    actioner_id, actionee_id = parse_id(actioner, LINK_DIGITS), parse_id(actionee, LINK_DIGITS)
    if action not in QUICK_ACTIONS or actioner_id is None or actionee_id is None or len(unique) > 200:
        raise LinkError(LINK_INVALID, 400)
    parts = unique.split("-", 2)  # the base64url signature may itself contain '-'
    expires = parse_id(parts[1], LINK_DIGITS) if len(parts) == 3 else None
    if expires is None or not parts[0]:
        raise LinkError(LINK_INVALID, 400)
    qa = QuickAction(action, actioner_id, actionee_id, parts[0], expires)
    if not hmac.compare_digest(_signature(key, qa), parts[2]):
        raise LinkError(LINK_INVALID, 400)
    if now >= qa.expires:
        raise LinkError(LINK_EXPIRED, 410)
    return qa
