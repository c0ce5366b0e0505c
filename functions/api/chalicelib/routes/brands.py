"""Brand profiles of the caller's account, logo uploads, and the public view of any brand."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.auth import Member, member_for_brand
from chalicelib.http import JSON_HEADERS, brand_id_param, json_body, route
from tandem.errors import Forbidden
from tandem.store.models import Account, Brand

bp = Blueprint(__name__)


def _own_brand(member: Member, raw_id: str) -> Brand:
    """A brand of the caller's account named in the path (whichever brand is selected)."""
    brand_id = brand_id_param(raw_id)
    for brand in member.brands:
        if int(brand.brand_id) == brand_id:
            return brand
    raise Forbidden("You don't have access to this brand")


@route(bp, "/brands/options", methods=["GET"])
def options() -> dict:
    from tandem.domain import brand_profile

    member_for_brand(bp.current_request, need_brand=False)
    return brand_profile.options()


@route(bp, "/brands", methods=["GET"])
def list_brands() -> dict:
    from tandem.services import brands

    member = member_for_brand(bp.current_request, need_brand=False)
    return {"brands": [brands.profile_json(b) for b in member.brands]}


@route(bp, "/brands", methods=["POST"])
def create_brand() -> Response:
    from tandem.services import brands

    member = member_for_brand(bp.current_request, need_brand=False)
    brand, run_id = brands.create_profile(member.user.account_id, json_body(bp.current_request))
    return Response(
        body={"brand": brands.profile_json(brand), "runId": run_id, "notice": brands.name_notice(brand)},
        status_code=201,
        headers=dict(JSON_HEADERS),
    )


@route(bp, "/brands/{brandId}", methods=["GET"])
def get_brand(brandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import brands

    member = member_for_brand(bp.current_request, need_brand=False)
    return {"brand": brands.profile_json(_own_brand(member, brandId))}


@route(bp, "/brands/{brandId}", methods=["PUT"])
def update_brand(brandId: str) -> dict:  # noqa: N803
    from tandem.services import brands

    member = member_for_brand(bp.current_request, need_brand=False)
    brand = _own_brand(member, brandId)
    brand, run_id = brands.update_profile(brand, json_body(bp.current_request))
    return {"brand": brands.profile_json(brand), "runId": run_id, "notice": brands.name_notice(brand)}


@route(bp, "/brands/{brandId}/logo", methods=["POST"])
def logo_upload(brandId: str) -> dict:  # noqa: N803
    from tandem.services import brands

    member = member_for_brand(bp.current_request, need_brand=False)
    brand = _own_brand(member, brandId)
    return brands.logo_upload(brand, json_body(bp.current_request))


@route(bp, "/brand/{otherBrandId}", methods=["GET"])
def public_brand(otherBrandId: str) -> dict:  # noqa: N803
    """Any brand, as the selected brand (X-Brand-Id) sees it."""
    from tandem.services import entitlements, matches, visibility

    def also(brand_id: int | None, account_id: str) -> list:
        return entitlements.with_account(brand_id, account_id) + visibility.keys(brand_id)

    member = member_for_brand(bp.current_request, also=also)
    other_id = brand_id_param(otherBrandId)
    viewer = matches.viewer_for(member.brand, member.item(Account, member.user.account_id), member.user)
    return matches.public_view(viewer, other_id, member.found)


@route(bp, "/brands/{brandId}/block", methods=["POST"])
def block_brand(brandId: str) -> dict:  # noqa: N803
    """Block another brand (the path's brand: not one of the caller's) as the selected brand
    (X-Brand-Id): both ways, silently."""
    from tandem.services import trust

    member = member_for_brand(bp.current_request)
    return trust.block(member.brand, brand_id_param(brandId), json_body(bp.current_request))


@route(bp, "/brands/{brandId}/block", methods=["DELETE"])
def unblock_brand(brandId: str) -> dict:  # noqa: N803
    from tandem.services import trust

    member = member_for_brand(bp.current_request)
    return trust.unblock(member.brand, brand_id_param(brandId))


@route(bp, "/brands/{brandId}/report", methods=["POST"])
def report_brand(brandId: str) -> Response:  # noqa: N803
    from tandem.services import trust

    member = member_for_brand(bp.current_request)
    result = trust.report(member.brand, member.user, brand_id_param(brandId), json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))
