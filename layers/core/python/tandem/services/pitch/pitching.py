"""Pitching to a live feature: 1 credit, a connection request to its owner."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import pitch as rules
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.services.pitch.records import get_feature, pitch_request_id
from tandem.store.models import Brand, ConnectionRequest, User
from tandem.store.pitch import Feature


def pitch(
    feature_id: str, brand: Brand, user: User, body: dict[str, Any], now: int | None = None
) -> dict[str, Any]:
    """POST pitch/{id}/pitch {message}: 1 credit, a request to the feature's owner. Your own
    feature, a second pitch, a feature not live: 4xx and nothing changes."""
    from tandem.services import requests
    from tandem.services.requests.sending import Pitch

    now = int(now if now is not None else time.time())
    feature = get_feature(feature_id)
    own = feature.account_id == brand.account_id
    if own:
        raise ValidationError(rules.OWN_FEATURE)
    if feature.status in (rules.PENDING, rules.REFUSED):
        raise NotFound(rules.NOT_FOUND)  # others never learn of a feature that is not live
    why = rules.pitch_refusal(feature.status, feature.expires_at, now, own)
    if why:
        raise Conflict(why)
    request_id = pitch_request_id(feature_id, int(brand.brand_id))
    if ConnectionRequest.find(request_id, consistent=True) is not None:
        raise Conflict(rules.ALREADY_PITCHED)

    def live_check(tx: Any, at: int) -> None:
        tx.condition_check(
            Feature,
            *Feature.key(feature_id),
            condition=(Feature.status == rules.LIVE) & (Feature.expires_at > at),
        )

    def refusal(at: int) -> str | None:
        if ConnectionRequest.find(request_id, consistent=True) is not None:
            return rules.ALREADY_PITCHED
        fresh = get_feature(feature_id)
        return rules.pitch_refusal(fresh.status, fresh.expires_at, at, False)

    body = body if isinstance(body, dict) else {}
    try:
        return requests.send(
            brand,
            user,
            {"message": body.get("message")},
            pitch=Pitch(
                request_id=request_id,
                feature_id=feature_id,
                title=feature.title,
                brand_id=int(feature.brand_id),
                live_check=live_check,
                refusal=refusal,
            ),
        )
    except NotFound:
        # The feature's brand is blocked either way or suspended (tandem.services.visibility):
        # the answer of GET pitch/{id} and of an unknown feature, so nothing reveals it.
        raise NotFound(rules.NOT_FOUND) from None
