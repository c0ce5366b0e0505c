"""Blocking and reporting a brand (issue 27), as the member's selected brand.

Block: both ways and silent (tandem.services.visibility). Blocking also cancels a pending
request between the two through the requests' own cancel transition (its held credit goes back
to its sender) and takes each brand out of the other's new matches. Unblocking restores
visibility and nothing else.

Report: one open report per reporter account and brand, at most 10 a day per member; the team
works them from the admin console's Reports queue (tandem.services.trust_admin).
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from tandem.domain import relations as rel
from tandem.domain import requests as request_rules
from tandem.domain.identity import NAMED, STRANGER, identity
from tandem.domain.throttle import Window
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.errors import Conflict as Moved
from tandem.services import collaborations, match_learning, rate_limit, visibility
from tandem.services.requests.records import get_request
from tandem.services.requests.transitions import transition
from tandem.services.viewer import Viewer
from tandem.store import news
from tandem.store.items import get_many
from tandem.store.models import Brand, BrandRelation, User
from tandem.store.safety import BrandBlocks, ReportEntry, file_report, set_block

OWN_BLOCK = "You can't block one of your own brands"
OWN_REPORT = "You can't report one of your own brands"
REPORTED = "Thanks, our team will look at this"
ALREADY_REPORTED = "You have already reported this brand. Our team will look at it."
TOO_MANY_REPORTS = "You can report up to 10 brands a day. Please try again tomorrow."
REASON_REQUIRED = "Please choose a reason"
TEXT_MAX = 1000
TEXT_TOO_LONG = "Please keep your report under 1,000 characters"
REPORTS_PER_DAY = 10
REPORTS = Window("brand-report", 24 * 3600, 3600)
REASONS = {
    "spam": "Spam",
    "misleading": "Misleading profile",
    "inappropriate": "Inappropriate content",
    "harassment": "Harassment",
    "other": "Something else",
}


def _other(brand: Brand, other_id: int, own_message: str) -> Brand:
    """The other brand, as long as it exists and is not one of the member's own."""
    if other_id == int(brand.brand_id):
        raise ValidationError(own_message)
    other = Brand.find(other_id, consistent=True)
    if other is None:
        raise NotFound(visibility.NOT_FOUND)
    if other.account_id == brand.account_id:
        raise ValidationError(own_message)
    return other


def _cancel_pending_between(a: int, b: int) -> int:
    """Cancel an open request either way between the two brands (its credit back to its
    sender, through the one cancel transition). `a` blocks `b`: a request from `b` is cancelled
    by someone else's act (b's Sent says so and b may write again once unblocked); one `a`
    sent is a's own cancel. Returns how many were cancelled."""
    found = get_many(
        [(BrandRelation, BrandRelation.key(a, b)), (BrandRelation, BrandRelation.key(b, a))], consistent=True
    )
    cancelled = 0
    for relation in found.values():
        if relation.request_state != rel.REQUESTED_OUT or not relation.request_id:
            continue  # the sender's own item names the open request (awaiting ones too)
        try:
            cause = None if int(relation.brand_id) == a else request_rules.UNAVAILABLE
            transition(get_request(relation.request_id), "cancel", cause=cause)
        except (Moved, NotFound):
            continue  # answered or cancelled meanwhile
        cancelled += 1
    return cancelled


def block(brand: Brand, other_id: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST brands/{id}/block {name?} as `brand`. `name`: the name the member saw (a request card
    names its sender even to a member without a plan); when it is the brand's real name, the
    Blocked brands list keeps showing it (nothing is revealed: the caller already knew it)."""
    other = _other(brand, other_id, OWN_BLOCK)
    mine = int(brand.brand_id)
    seen = (body or {}).get("name")
    set_block(mine, other_id, True, named=isinstance(seen, str) and seen.strip() == other.name)
    news.remove(mine, news.MATCHES, [other_id])  # counts leak nothing: neither is new any more
    news.remove(other_id, news.MATCHES, [mine])
    _cancel_pending_between(mine, other_id)
    _end_collaborations(mine, other_id)
    _record_block(brand, other)
    return {"blocked": True}


def _end_collaborations(mine: int, other_id: int) -> None:
    """What the two planned together and is not live yet ends (silently for the blocker)."""
    collaborations.end_unavailable(mine, other_id)


def _record_block(brand: Brand, other: Brand) -> None:
    """A block is what matching learns from too (issue 37); a record that cannot be kept never
    fails the block."""

    try:
        match_learning.record_action(brand, other, "block")
    except Exception:
        logging.getLogger(__name__).exception("Could not record a block")


def unblock(brand: Brand, other_id: int) -> dict[str, Any]:
    """DELETE brands/{id}/block as `brand`: visibility comes back, nothing else does."""
    _other(brand, other_id, OWN_BLOCK)
    set_block(int(brand.brand_id), other_id, False)
    return {"blocked": False}


def list_blocked(viewer: Viewer) -> dict[str, Any]:
    """GET users/blocked: the brands the selected brand blocked, by name (as the member may see
    it). Two calls: the door's (the caller with its blocks: reads SEES), one BatchGetItem of
    those brands."""
    blocks = viewer.item(BrandBlocks, viewer.brand_id)
    blocked = visibility.blocked_by_me(blocks)
    named = {int(i) for i in (blocks.named or ())} if blocks is not None else set()
    items = []
    for other in sorted(Brand.find_many(blocked), key=lambda b: int(b.brand_id)) if blocked else []:
        shown = identity(viewer, other, NAMED if int(other.brand_id) in named else STRANGER)
        items.append({**shown.summary(int(other.brand_id)), "nameVisible": shown.name_visible})
    return {"blocked": items}


def _clean_report(body: dict[str, Any]) -> tuple[str, str]:
    reason = body.get("reason")
    if not isinstance(reason, str) or reason not in REASONS:
        raise ValidationError(REASON_REQUIRED, errors={"reason": REASON_REQUIRED})
    text = body.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ValidationError("Please describe what happened in words", errors={"text": "Text only"})
    if len(text) > TEXT_MAX:
        raise ValidationError(TEXT_TOO_LONG, errors={"text": TEXT_TOO_LONG})
    return reason, text.strip()


def report(brand: Brand, user: User, other_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """POST brands/{id}/report {reason, text} as `brand`: 201 with the thanks."""
    reason, text = _clean_report(body)
    other = _other(brand, other_id, OWN_REPORT)
    if other_id in visibility.hidden_from(int(brand.brand_id)):
        raise NotFound(visibility.NOT_FOUND)  # as for any brand the member cannot see
    at = rate_limit.take(REPORTS, user.user_id, REPORTS_PER_DAY, TOO_MANY_REPORTS)
    entry = ReportEntry(
        reporter_account_id=brand.account_id,
        reporter_user_id=user.user_id,
        reporter_email=user.email or "",
        reporter_brand_id=int(brand.brand_id),
        reporter_brand_name=brand.name,
        reason=reason,
        text=text,
        at=int(time.time()),
    )
    if not file_report(other_id, other.name, entry, datetime.now(UTC)):
        rate_limit.add(REPORTS, user.user_id, at, -1)  # a repeat report is not one of the ten
        raise Conflict(ALREADY_REPORTED)
    return {"message": REPORTED}
