"""Pitch Area rules with no I/O: a brand's featured opportunity, its lifecycle, its input.

A feature is submitted (`pending`, awaiting an admin's approval), then `live` from its approval
until its term (3 or 6 months) ends, when the scheduler makes it `expired`. The owner may end a
live feature early (`ended`, no refund) or withdraw a pending one nothing was paid for yet; an
admin may refuse a pending one (`refused`, its credits or payment returned). A brand has at most
one open (pending or live) feature at a time; after it closes a new one can be created. Members
with credits pay 3 credits when they submit; a feature-only account pays billing's feature
product (3 or 6 months) and an admin approves it only once billing's sync has recorded that
payment.

Pitching to a live feature costs 1 credit and is a connection request to the owner
(tandem.services.requests): the owner accepts (both get contact details) or declines.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from tandem.domain import credits as credit_rules
from tandem.domain.times import iso
from tandem.domain.vocabulary import FORM_KINDS as COLLAB_KINDS

PENDING = "pending"
LIVE = "live"
EXPIRED = "expired"
ENDED = "ended"
REFUSED = "refused"
STATUSES = (PENDING, LIVE, EXPIRED, ENDED, REFUSED)
OPEN = (PENDING, LIVE)

TERMS = (3, 6)  # months
MONTH_DAYS = 30  # a term month, as billing's 3-month access product counts them (90 days)
FEATURE_COST = credit_rules.FEATURE_COST
PITCH_COST = credit_rules.PITCH_COST
PAY_CREDITS = "credits"
PAY_PRODUCT = "product"

OFFER_MAX = 1000
LOOKING_FOR_MAX = 1000
AUDIENCE_MAX = 300
TITLE_MAX = 100
REASON_MAX = 1000
PAGE_SIZE = 20

REQUIRED = "This field is required"
TERMS_NOT_ACCEPTED = "Please accept the feature terms to continue"
ALREADY_OPEN = "This brand already has a feature in the Pitch Area. End it before creating a new one."
NOT_FOUND = "Feature not found"
NOT_YOURS = "Only the brand that created this feature can end it"
PAID_NOT_LIVE = "This feature is awaiting approval. You can end it early once it's live."
ENDED_MESSAGE = "Your feature has ended"
ALREADY_CLOSED = {
    EXPIRED: "This feature has already expired",
    ENDED: "This feature has already ended",
    REFUSED: "This feature was not approved",
}
OWN_FEATURE = "You can't pitch to your own feature"
ALREADY_PITCHED = "You have already pitched to this feature"
NOT_LIVE = {
    PENDING: "This feature is not live yet",
    EXPIRED: "This feature has expired",
    ENDED: "This feature has ended",
    REFUSED: "This feature is not in the Pitch Area",
}
NOT_PENDING = "Only a feature awaiting approval can be approved or refused"
NOT_PAID = "This feature is not paid yet"
BAD_FILTER = "Unknown {name}: {value}"
CLOSING_PAST = "The closing date must be in the future"
CLOSING_INVALID = "Enter the closing date as YYYY-MM-DD"

_ID = re.compile(r"^[a-f0-9]{16}$")

FEATURE_TERMS = (
    "Your feature is shown in the Pitch Area for a term of 3 or 6 months.",
    "It can be ended early only by written consent of both parties, with no refund.",
    "We can't guarantee that brands will respond to your feature.",
    "Features are normally approved within 24 hours; we confirm the approval by email.",
)


def valid_id(raw: Any) -> bool:
    return isinstance(raw, str) and bool(_ID.match(raw))


class FeatureInvalid(ValueError):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


def _text(body: dict[str, Any], name: str, limit: int, errors: dict[str, str], required: bool = True) -> str:
    raw = body.get(name)
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        errors[name] = "This must be text"
        return ""
    text = raw.strip()
    if required and not text:
        errors[name] = REQUIRED
    elif len(text) > limit:
        errors[name] = f"This can be at most {limit} characters"
    return text


def clean_feature(body: dict[str, Any], today: date, *, paying_with_product: bool = False) -> dict[str, Any]:
    """The opportunity a member submits, cleaned, or FeatureInvalid naming every bad field.

    {title, offer, lookingFor, collabKinds [COLLAB_KINDS], audience, closingDate (YYYY-MM-DD,
    optional, after today), months (3|6), acceptTerms (true)}."""
    errors: dict[str, str] = {}
    clean: dict[str, Any] = {
        "title": _text(body, "title", TITLE_MAX, errors),
        "offer": _text(body, "offer", OFFER_MAX, errors),
        "looking_for": _text(body, "lookingFor", LOOKING_FOR_MAX, errors),
        "audience": _text(body, "audience", AUDIENCE_MAX, errors, required=False),
    }
    kinds = body.get("collabKinds")
    if not isinstance(kinds, list) or not kinds:
        errors["collabKinds"] = "Choose at least one kind of collaboration"
    elif not all(isinstance(k, str) and k in COLLAB_KINDS for k in kinds):
        errors["collabKinds"] = f"Collaboration kinds are: {', '.join(COLLAB_KINDS)}"
    else:
        clean["collab_kinds"] = sorted(set(kinds), key=COLLAB_KINDS.index)
    closing = body.get("closingDate")
    clean["closing_date"] = None
    if closing not in (None, ""):
        try:
            if not isinstance(closing, str) or not re.match(r"^\d{4}-\d{2}-\d{2}$", closing):
                raise ValueError
            day = date.fromisoformat(closing)
        except ValueError:
            errors["closingDate"] = CLOSING_INVALID
        else:
            if day <= today:
                errors["closingDate"] = CLOSING_PAST
            else:
                clean["closing_date"] = day.isoformat()
    months = body.get("months")
    if isinstance(months, bool) or months not in TERMS:
        errors["months"] = "Choose a term of 3 or 6 months"
    else:
        clean["months"] = int(months)
    if body.get("acceptTerms") is not True:
        errors["acceptTerms"] = TERMS_NOT_ACCEPTED
    if errors:
        raise FeatureInvalid(errors)
    clean["pay_with"] = PAY_PRODUCT if paying_with_product else PAY_CREDITS
    return clean


def term_end(start: int, months: int) -> int:
    """When a feature approved (or paid, whichever is later) at `start` expires."""
    return int(start) + int(months) * MONTH_DAYS * 86400


def is_live(status: str, expires_at: int | None, now: int) -> bool:
    return status == LIVE and expires_at is not None and int(expires_at) > now


def effective_status(status: str, expires_at: int | None, now: int) -> str:
    """A live feature past its term reads as expired before the scheduler has marked it."""
    if status == LIVE and expires_at is not None and int(expires_at) <= now:
        return EXPIRED
    return status


def may_end(status: str, expires_at: int | None, now: int) -> bool:
    """Its owner may end a live feature early (no refund, as the feature terms say)."""
    return effective_status(status, expires_at, now) == LIVE


def may_withdraw(status: str, expires_at: int | None, now: int, paid: bool) -> bool:
    """Its owner may withdraw a feature awaiting approval only while nothing was paid for it
    (credits pay at once; a paid feature product's term has not begun, an admin decides it)."""
    return effective_status(status, expires_at, now) == PENDING and not paid


def pitch_refusal(status: str, expires_at: int | None, now: int, own: bool) -> str | None:
    """Why a brand may not pitch to a feature, or None."""
    if own:
        return OWN_FEATURE
    current = effective_status(status, expires_at, now)
    if current != LIVE:
        return NOT_LIVE.get(current, NOT_LIVE[ENDED])
    return None


def feature_done(
    feature: dict[str, Any] | None, *, paid_by_product: bool, has_had_live: bool, now: int
) -> dict[str, Any]:
    """Credits info's featureDone of SPEC section 3 for the brand's latest feature:
    {_id, approved, current, pending, paid, expires, hasHadLive}. `current`: live now;
    `pending`: awaiting approval; `paid`: paid by credits, or billing's sync recorded its
    product's payment; `expires`: ISO 8601 (the term's end once approved)."""
    if not feature:
        return {
            "_id": None,
            "approved": False,
            "current": False,
            "pending": False,
            "paid": False,
            "expires": None,
            "hasHadLive": has_had_live,
        }
    status = effective_status(feature["status"], feature.get("expires_at"), now)
    approved = feature.get("approved_at") is not None
    return {
        "_id": feature["feature_id"],
        "approved": approved,
        "current": status == LIVE,
        "pending": status == PENDING,
        "paid": feature.get("pay_with") == PAY_CREDITS or paid_by_product,
        "expires": iso(feature.get("expires_at")),
        "hasHadLive": has_had_live or approved,
    }


def payment_view(feature: dict[str, Any] | None, paid: bool, now: int) -> str:
    """SPEC section 4's payment view: not created, pending approval, paid, live, expired."""
    if not feature:
        return "not created"
    status = effective_status(feature["status"], feature.get("expires_at"), now)
    if status == LIVE:
        return "live"
    if status in (EXPIRED, ENDED, REFUSED):
        return "expired"
    return "paid" if paid and feature.get("pay_with") == PAY_PRODUCT else "pending approval"


def check_filter(name: str, value: Any, allowed: tuple[str, ...]) -> str | None:
    if value in (None, ""):
        return None
    if value not in allowed:
        raise ValueError(BAD_FILTER.format(name=name, value=value))
    return value


def clean_reason(raw: Any) -> str:
    if raw is None:
        raw = ""
    if not isinstance(raw, str) or not raw.strip():
        raise FeatureInvalid({"reason": "Please give the member a reason"})
    if len(raw.strip()) > REASON_MAX:
        raise FeatureInvalid({"reason": f"The reason can be at most {REASON_MAX} characters"})
    return raw.strip()
