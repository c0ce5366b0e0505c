"""How features read in the API: the Pitch screens' options and a feature as a member sees it."""

from __future__ import annotations

from typing import Any

from tandem.domain import brand_profile
from tandem.domain import pitch as rules
from tandem.domain.identity import OWN, STRANGER, Looking, identity
from tandem.domain.times import iso, iso_ms
from tandem.services import entitlements
from tandem.store.models import Account
from tandem.store.pitch import Feature


def options() -> dict[str, Any]:
    """What the Pitch screens offer: filters, terms, costs."""
    return {
        "collabKinds": list(brand_profile.COLLAB_KINDS),
        "categories": list(brand_profile.CATEGORIES),
        "terms": list(rules.FEATURE_TERMS),
        "months": list(rules.TERMS),
        "featureCost": rules.FEATURE_COST,
        "pitchCost": rules.PITCH_COST,
    }


def feature_json(
    feature: Feature,
    *,
    viewer: Looking,
    now: int,
    owner_account: Account | None = None,
) -> dict[str, Any]:
    """A feature as `viewer` sees it: the brand as tandem.domain.identity shows it (Matches'
    rule), their own marked. `Looker(feature.account_id)`: as its owner sees it."""
    own = viewer.account_id is not None and feature.account_id == viewer.account_id
    kept = feature.brand
    shown = identity(viewer, kept, OWN if own else STRANGER)
    status = rules.effective_status(feature.status, feature.expires_at, now)
    text = shown.text  # a hidden name is hidden in what the brand wrote too

    answer: dict[str, Any] = {
        "id": feature.feature_id,
        "brand": shown.summary(int(kept.id)),
        "nameVisible": shown.name_visible,
        "title": text(feature.title),
        "offer": text(feature.offer),
        "lookingFor": text(feature.looking_for),
        "collabKinds": list(feature.collab_kinds or []),
        "audience": text(feature.audience or ""),
        "closingDate": feature.closing_date,
        "months": int(feature.months),
        "status": status,
        "live": status == rules.LIVE,
        "createdAt": iso_ms(feature.created_at),
        "approvedAt": iso(feature.approved_at),
        "expiresAt": iso(feature.expires_at),
        "own": own,
    }
    if own:
        paid = feature.pay_with == rules.PAY_CREDITS or entitlements.paid_by_product(
            owner_account, feature.feature_id
        )
        answer.update(
            {
                "payWith": feature.pay_with,
                "paid": paid,
                "paymentView": rules.payment_view(feature.as_dict(), paid, now),
                "refusedReason": feature.refused_reason,
                # the owner's rights on it now (DELETE pitch/{id} asks the same two rules)
                "canEnd": rules.may_end(feature.status, feature.expires_at, now),
                "canWithdraw": rules.may_withdraw(feature.status, feature.expires_at, now, paid),
            }
        )
    return answer
