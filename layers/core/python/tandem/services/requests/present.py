"""How requests and connections read in the API (docs/api.md): RequestItem, BrandSummary,
contacts. Names are masked by the one rule of tandem.domain.identity.

Whose name a request shows (issue 21: the same story as Matches): a brand that wrote to you is
named unless it hides its name (its request introduces it); a brand you wrote to is named as
you saw it when you sent (only when your plan shows names and it does not hide its name);
connected brands always see each other."""

from __future__ import annotations

from typing import Any

from tandem.domain import brand_profile
from tandem.domain import requests as rules
from tandem.domain.identity import CONNECTED, INTRODUCED, OWN, STRANGER, Looker, Looking, identity
from tandem.domain.times import iso_ms
from tandem.store.models import Brand, BrandSummaryMap, User
from tandem.store.requests import ConnectionRequest

CONTACT_FIELDS = ("name", "email", "phone")


def summary(brand: Brand) -> BrandSummaryMap:
    """A brand as a request keeps it (as it was when the request was sent)."""
    return BrandSummaryMap(
        id=int(brand.brand_id),
        name=brand.name,
        category=brand.category or "",
        logo_url=brand_profile.logo_url(brand.logo_key),
        hide_name=bool(brand.hide_name),
    )


def brand_json(kept: BrandSummaryMap, relation: str, viewer: Looking | None = None) -> dict[str, Any]:
    """A BrandSummary of the brand a request kept, as tandem.domain.identity shows it to
    `viewer` (None: an email's reader) in that `relation`."""
    return identity(viewer, kept, relation).summary(int(kept.id))


def live_brand_json(brand: Brand) -> dict[str, Any]:
    """A connected brand as it is now (connected brands see each other's names)."""
    return identity(None, brand, CONNECTED).summary(int(brand.brand_id))


def raw_contact(value: Any) -> dict | None:
    if value is None:
        return None
    raw = value.as_dict() if hasattr(value, "as_dict") else dict(value)
    return {k: raw.get(k) for k in CONTACT_FIELDS}


def contact_of(brand: Brand) -> dict[str, str | None]:
    """The brand's contact details (BrandProfile `contact`), empty values as None."""
    contact = getattr(brand, "contact", None)
    if contact is None:
        return {}
    raw = contact.as_dict() if hasattr(contact, "as_dict") else dict(contact)
    return {k: (v or None) for k, v in raw.items() if k in CONTACT_FIELDS}


def contact_snapshot(brand: Brand) -> dict[str, str | None]:
    """What the other side is given on accept: the brand's contact details, or its account's
    first user when the brand has none yet."""
    contact = contact_of(brand)
    if any(contact.values()):
        return {k: contact.get(k) for k in CONTACT_FIELDS}
    users = User.of_account(brand.account_id)
    if not users:
        return dict.fromkeys(CONTACT_FIELDS)
    first = sorted(users, key=lambda u: u.email)[0]
    return {"name": first.name, "email": first.email, "phone": None}


def request_json(
    req: ConnectionRequest, viewer_brand_id: int, is_new: bool = False, *, sees_names: bool = True
) -> dict[str, Any]:
    """The RequestItem of docs/api.md as the brand `viewer_brand_id` sees it; `sees_names`:
    the viewer's plan shows other brands' names (tandem.services.entitlements)."""
    sent = int(req.from_brand_id) == viewer_brand_id
    connected = req.status == rules.ACCEPTED
    other_contact = req.to_contact if sent else req.from_contact
    looker = Looker(names_shown=sees_names)
    # the sender reached the recipient itself; the recipient is a stranger to its sender
    sender = identity(looker, req.from_brand, OWN if sent else CONNECTED if connected else INTRODUCED)
    recipient = identity(looker, req.to_brand, OWN if not sent else CONNECTED if connected else STRANGER)
    return {
        "id": req.request_id,
        "status": req.status,
        "direction": "sent" if sent else "received",
        "fromBrand": sender.summary(int(req.from_brand.id)),
        "toBrand": recipient.summary(int(req.to_brand.id)),
        # a sender that hides its name from the recipient is hidden in its message (a pitch) too
        "message": sender.text(req.message or "") if req.message is not None else req.message,
        "reply": req.reply if req.status == rules.DECLINED else None,
        # the sender's: why a request it did not cancel was cancelled (rules.CANCEL_CAUSES)
        "cancelReason": req.cancel_cause if sent and req.status == rules.CANCELLED else None,
        "createdAt": iso_ms(req.created_at),
        "updatedAt": iso_ms(req.updated_at),
        # a pending request expires unanswered then (tandem.domain.requests.EXPIRY_DAYS)
        "expiresAt": iso_ms(int(req.expires_at) * 1000)
        if req.status == rules.PENDING and req.expires_at is not None
        else None,
        "isNew": is_new,
        "contact": raw_contact(other_contact) if connected else None,
        "pitch": pitch_json(req),
    }


def pitch_json(req: ConnectionRequest) -> dict[str, Any] | None:
    """A pitch to a Pitch Area feature names the feature it answers: {featureId, title}."""
    if req.pitch is None:
        return None
    raw = req.pitch.as_dict() if hasattr(req.pitch, "as_dict") else dict(req.pitch)
    return {"featureId": raw.get("feature_id"), "title": raw.get("title")}


def connection_json(
    req: ConnectionRequest, brand_id: int, live: Brand | None, is_new: bool
) -> dict[str, Any]:
    """A Connection of docs/api.md: the other brand as it is now (as it was, if it is gone), and
    its current contact details (those kept on accept when it has none now)."""
    sent = int(req.from_brand_id) == brand_id
    stored = raw_contact(req.to_contact if sent else req.from_contact) or {}
    other = (
        live_brand_json(live)
        if live is not None
        else brand_json(req.to_brand if sent else req.from_brand, CONNECTED)
    )
    if live is not None:
        current = contact_of(live)
        if any(current.values()):
            stored = {k: current.get(k) for k in CONTACT_FIELDS}
    return {
        "id": req.request_id,
        "brand": other,
        "contact": stored or None,
        "connectedAt": iso_ms(req.updated_at),
        "isNew": is_new,
        "direction": "sent" if sent else "received",
    }
