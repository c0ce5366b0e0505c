"""The Pitch Area's lists and pages: live features, one feature, the brand's own."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import brand_profile
from tandem.domain import pitch as rules
from tandem.domain.times import iso_ms
from tandem.errors import NotFound, ValidationError
from tandem.services.pitch.present import feature_json, options
from tandem.services.pitch.records import pitch_request_id
from tandem.services.viewer import Viewer
from tandem.store.items import get_many
from tandem.store.pitch import Feature
from tandem.store.requests import ConnectionRequest


def list_live(
    viewer: Viewer, kind: Any = None, category: Any = None, cursor: Any = None, now: int | None = None
) -> dict[str, Any]:
    """GET pitch: a page of live features, newest approval first (ONE Query; the caller's check
    read the account). Filters: `kind` (a collaboration kind), `category` (the brand's).
    Brands hidden from the viewer (blocked either way, suspended) are left out. Reads: SEES."""
    account, hidden = viewer.account, viewer.hidden
    now = int(now if now is not None else time.time())
    try:
        kind = rules.check_filter("collaboration kind", kind, brand_profile.COLLAB_KINDS)
        category = rules.check_filter("category", category, brand_profile.CATEGORIES)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    condition = Feature.expires_at > now
    if kind:
        condition &= Feature.collab_kinds.contains(kind)
    if category:
        condition &= Feature.brand.category == category
    if cursor is not None and not isinstance(cursor, str):
        raise ValidationError("This list's position is not valid; load it again")
    try:
        found, after = Feature.page_with_status(rules.LIVE, rules.PAGE_SIZE, cursor, condition)
    except ValueError:
        raise ValidationError("This list's position is not valid; load it again") from None
    return {
        "features": [
            feature_json(f, viewer=viewer, now=now, owner_account=account)
            for f in found
            if int(f.brand_id) not in hidden
        ],
        "cursor": after,
        "options": options(),
    }


def view(viewer: Viewer, feature_id: str, now: int | None = None) -> dict[str, Any]:
    """GET pitch/{id}: a feature that was live (live, expired, ended) for anyone; one that never
    was (pending, refused, withdrawn before approval) only for its owner.
    `pitch`: this brand's pitch to it, if any (one BatchGetItem of the feature and the pitch)."""
    now = int(now if now is not None else time.time())
    brand, account, hidden = viewer.brand, viewer.account, viewer.hidden
    if not rules.valid_id(feature_id):
        raise NotFound(rules.NOT_FOUND)
    request_id = pitch_request_id(feature_id, int(brand.brand_id))
    found = get_many(
        [(Feature, Feature.key(feature_id)), (ConnectionRequest, ConnectionRequest.key(request_id))],
        consistent=True,
    )
    feature = found.get(Feature.key(feature_id))
    own = feature is not None and feature.account_id == brand.account_id
    never_live = feature is not None and (
        feature.status in (rules.PENDING, rules.REFUSED) or feature.approved_at is None
    )  # pending, refused, or ended (withdrawn) before it was approved
    if feature is None or (not own and (never_live or int(feature.brand_id) in hidden)):
        raise NotFound(rules.NOT_FOUND)
    answer = feature_json(
        feature,
        viewer=viewer,
        now=now,
        owner_account=account,
    )
    sent = found.get(ConnectionRequest.key(request_id))
    answer["pitch"] = (
        {"id": sent.request_id, "status": sent.status, "createdAt": iso_ms(sent.created_at)}
        if sent is not None
        else None
    )
    answer["canPitch"] = (
        sent is None and rules.pitch_refusal(feature.status, feature.expires_at, now, own) is None
    )
    return {"feature": answer, "options": options()}


def mine(viewer: Viewer, now: int | None = None) -> dict[str, Any]:
    """GET pitch/mine: the brand's features, newest first, and its featureDone (reads:
    PITCH_MINE)."""
    now = int(now if now is not None else time.time())
    brand, account = viewer.brand, viewer.account
    features = Feature.of_brand(int(brand.brand_id))
    return {
        "features": [feature_json(f, viewer=viewer, now=now, owner_account=account) for f in features],
        "featureDone": viewer.feature_done(now),
        "options": options(),
    }
