"""Pitching to a live feature: its own use case. 1 credit SPENT (nothing returned on decline),
a connection request to the feature's owner whose id is fixed by the feature and the sender (a
second pitch is a conflict), sent with the shared charging send
(tandem.services.requests.sending.deliver) in one transaction that also checks the feature is
still live. Reads with the caller: tandem.services.viewer.CREDITS."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import credits as credit_rules
from tandem.domain import pitch as rules
from tandem.domain import requests as request_rules
from tandem.errors import Conflict, NotFound, ValidationError
from tandem.observability import count_event
from tandem.services.pitch.records import get_feature, pitch_request_id
from tandem.services.requests.mail import mail_pitch
from tandem.services.requests.records import clean_text
from tandem.services.requests.sending import Charge, deliver
from tandem.services.viewer import Viewer
from tandem.store.base import Condition
from tandem.store.pitch import Feature
from tandem.store.requests import ConnectionRequest


def pitch(viewer: Viewer, feature_id: str, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST pitch/{id}/pitch {message}: 1 credit, a request to the feature's owner. Your own
    feature, a second pitch, a feature not live: 4xx and nothing changes."""
    now = int(now if now is not None else time.time())
    feature = get_feature(feature_id)
    own = feature.account_id == viewer.account_id
    if own:
        raise ValidationError(rules.OWN_FEATURE)
    if feature.status in (rules.PENDING, rules.REFUSED):
        raise NotFound(rules.NOT_FOUND)  # others never learn of a feature that is not live
    why = rules.pitch_refusal(feature.status, feature.expires_at, now, own)
    if why:
        raise Conflict(why)
    request_id = pitch_request_id(feature_id, viewer.brand_id)
    if ConnectionRequest.find(request_id, consistent=True) is not None:
        raise Conflict(rules.ALREADY_PITCHED)
    body = body if isinstance(body, dict) else {}
    message = clean_text(body.get("message"), "message", required=True, limit=request_rules.MESSAGE_MAX)

    def still_live(at: int) -> Condition:
        return (Feature.status == rules.LIVE) & (Feature.expires_at > at)

    def lost_race(at: int) -> str | None:
        if ConnectionRequest.find(request_id, consistent=True) is not None:
            return rules.ALREADY_PITCHED
        fresh = get_feature(feature_id)
        return rules.pitch_refusal(fresh.status, fresh.expires_at, at, False)

    charge = Charge(
        cost=credit_rules.PITCH_COST,
        mail=mail_pitch,
        spend_op=f"pitch:{request_id}",
        checks=((Feature, Feature.key(feature_id), still_live),),
        fields={"pitch": {"feature_id": feature_id, "title": feature.title}},
    )
    try:
        sent = deliver(viewer, int(feature.brand_id), message, request_id, charge, lost_race)
    except NotFound:
        # The feature's brand is blocked either way or suspended (tandem.services.visibility):
        # the answer of GET pitch/{id} and of an unknown feature, so nothing reveals it.
        raise NotFound(rules.NOT_FOUND) from None
    count_event("PitchSent")
    return sent
