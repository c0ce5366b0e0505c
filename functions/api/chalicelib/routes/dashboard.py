"""GET dashboard and dashboard/{brand}. What the dashboard reads with the caller is the
service's to say (tandem.services.dashboard.with_caller and ALONGSIDE)."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import Member, member_for_brand
from chalicelib.http import route
from tandem.store.models import Account, BrandSeen
from tandem.store.pitch import FeatureSlot

bp = Blueprint(__name__)


def build(member: Member) -> dict:
    """The dashboard from what member_for_brand read with the caller."""
    from tandem.services import dashboard

    if member.brand is None:
        return dashboard.build(None, [], user=member.user)
    brand_id = int(member.brand.brand_id)
    return dashboard.build(
        member.brand,
        member.brands,
        account=member.item(Account, member.user.account_id),
        seen=member.item(BrandSeen, brand_id) or BrandSeen.at(brand_id),
        buckets=member.alongside.get("buckets"),
        feature_slot=member.item(FeatureSlot, brand_id),
        user=member.user,
    )


@route(bp, "/dashboard", methods=["GET"])
def get_dashboard() -> dict:
    from tandem.services import dashboard

    request = bp.current_request
    return build(
        member_for_brand(request, need_brand=False, also=dashboard.with_caller, alongside=dashboard.ALONGSIDE)
    )


@route(bp, "/dashboard/{brand}", methods=["GET"])
def get_brand_dashboard(brand: str) -> dict:
    from tandem.services import dashboard

    request = bp.current_request
    return build(
        member_for_brand(request, path_brand=brand, also=dashboard.with_caller, alongside=dashboard.ALONGSIDE)
    )
