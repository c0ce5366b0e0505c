"""What the Pitch Area modules share: reading one feature, the brand's slot, ids and shapes."""

from __future__ import annotations

import hashlib
from typing import Any

from tandem.domain import pitch as rules
from tandem.errors import NotFound, ValidationError
from tandem.store.pitch import Feature, FeatureSlot

ATTEMPTS = 4


def invalid(errors: dict[str, str]) -> ValidationError:
    error = ValidationError(next(iter(errors.values())))
    error.errors = errors  # type: ignore[attr-defined]
    return error


def get_feature(feature_id: str, consistent: bool = True) -> Feature:
    if not rules.valid_id(feature_id):
        raise NotFound(rules.NOT_FOUND)
    feature = Feature.find(feature_id, consistent=consistent)
    if feature is None:
        raise NotFound(rules.NOT_FOUND)
    return feature


def pitch_request_id(feature_id: str, brand_id: int) -> str:
    """One brand pitches to one feature once: the request's id is fixed by the two."""
    return hashlib.sha256(f"pitch|{feature_id}|{int(brand_id)}".encode()).hexdigest()[:16]


def slot_actions(feature: Feature, **extra: Any) -> list:
    actions = [
        FeatureSlot.feature_id.set(feature.feature_id),
        FeatureSlot.status.set(feature.status),
        FeatureSlot.pay_with.set(feature.pay_with),
    ]
    for name in ("approved_at", "expires_at"):
        value = getattr(feature, name)
        attr = getattr(FeatureSlot, name)
        actions.append(attr.set(value) if value is not None else attr.remove())
    for name, value in extra.items():
        actions.append(getattr(FeatureSlot, name).set(value))
    return actions


def slot_free(slot: FeatureSlot, now: int) -> bool:
    if slot.status in (rules.EXPIRED, rules.ENDED, rules.REFUSED):
        return True
    return slot.status == rules.LIVE and slot.expires_at is not None and int(slot.expires_at) <= now
