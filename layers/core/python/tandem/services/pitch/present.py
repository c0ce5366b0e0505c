"""How features read in the API: the Pitch screens' options and a feature as a member sees it."""

from __future__ import annotations

from typing import Any

from tandem.domain import brand_profile
from tandem.domain import pitch as rules
from tandem.services import entitlements
from tandem.services.pitch.records import iso
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
    viewer_account_id: str | None,
    sees_names: bool,
    now: int,
    owner_account: Account | None = None,
) -> dict[str, Any]:
    """A feature as a member sees it: the brand masked by Matches' rule, their own marked."""
    own = viewer_account_id is not None and feature.account_id == viewer_account_id
    kept = feature.brand
    visible = brand_profile.name_visible(
        same_account=own, connected=False, viewer_subscribed=sees_names, hides_name=bool(kept.hide_name)
    )
    status = rules.effective_status(feature.status, feature.expires_at, now)

    def text(value: str) -> str:  # a hidden name is hidden in what the brand wrote too
        return value if visible else brand_profile.masked_text(value, kept.name)

    answer: dict[str, Any] = {
        "id": feature.feature_id,
        "brand": {
            "id": int(kept.id),
            "name": brand_profile.display_name(kept.name, kept.category or "", visible),
            "logoUrl": kept.logo_url if visible else None,
            "category": kept.category or "",
        },
        "nameVisible": visible,
        "title": text(feature.title),
        "offer": text(feature.offer),
        "lookingFor": text(feature.looking_for),
        "collabKinds": list(feature.collab_kinds or []),
        "audience": text(feature.audience or ""),
        "closingDate": feature.closing_date,
        "months": int(feature.months),
        "status": status,
        "live": status == rules.LIVE,
        "createdAt": iso(int(feature.created_at) // 1000),
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
            }
        )
    return answer
