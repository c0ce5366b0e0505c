"""GET dashboard and dashboard/{brand}."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import Member, member_for_brand
from chalicelib.http import lazy, route
from tandem.store.models import Account, Brand, BrandSeen, Key, TandemModel
from tandem.store.pitch import FeatureSlot

bp = Blueprint(__name__)
dashboard = lazy("tandem.services.dashboard")


def with_dashboard(brand_id: int | None, account_id: str) -> list[tuple[type[TandemModel], Key]]:
    """What the dashboard reads with the caller: the account, what is new to the brand and its
    Pitch Area feature (credits.featureDone)."""
    wanted: list[tuple[type[TandemModel], Key]] = [(Account, Account.key(account_id))]
    if brand_id is not None:
        wanted.append((BrandSeen, BrandSeen.key(brand_id)))
        wanted.append((FeatureSlot, FeatureSlot.key(brand_id)))
    return wanted


def _buckets(account_id: str) -> list:
    from tandem.services import credits

    return credits.buckets(account_id)


# Read at the same time as the caller's items: the account's brands (userBrands) and its
# credit buckets. The dashboard waits for one round trip instead of three.
DASHBOARD_READS = {"brands": Brand.of_account, "buckets": _buckets}


def build(member: Member) -> dict:
    if member.brand is None:
        return dashboard.build(None, [])
    return dashboard.build(
        member.brand,
        member.brands,
        account=member.item(Account, member.user.account_id),
        seen=member.item(BrandSeen, int(member.brand.brand_id)) or BrandSeen.at(int(member.brand.brand_id)),
        buckets=member.alongside.get("buckets"),
        feature_slot=member.item(FeatureSlot, int(member.brand.brand_id)),
        feature_only=member.user.access == "feature",
    )


@route(bp, "/dashboard", methods=["GET"])
def get_dashboard() -> dict:
    request = bp.current_request
    return build(member_for_brand(request, need_brand=False, also=with_dashboard, alongside=DASHBOARD_READS))


@route(bp, "/dashboard/{brand}", methods=["GET"])
def get_brand_dashboard(brand: str) -> dict:
    request = bp.current_request
    return build(member_for_brand(request, path_brand=brand, also=with_dashboard, alongside=DASHBOARD_READS))
