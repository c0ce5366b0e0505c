"""Brand profiles of the caller's account, logo uploads, and the public view of any brand."""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, brand_id_param, json_body
from tandem.domain import brand_profile
from tandem.services import brands, matches, trust
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/brands/options", methods=["GET"], reads=reads.CALLER)
def options(viewer: Viewer) -> dict:
    return brand_profile.options()


@route(bp, "/brands", methods=["GET"], reads=reads.USER_BRANDS)
def list_brands(viewer: Viewer) -> dict:
    return brands.account_brands(viewer)


@route(bp, "/brands", methods=["POST"], reads=reads.CALLER)
def create_brand(viewer: Viewer) -> Response:
    body = brands.create(viewer, json_body(bp.current_request))
    return Response(body=body, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/brands/{brandId}", methods=["GET"], reads=reads.USER_BRANDS)
def get_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return brands.own_profile(viewer, brand_id_param(brandId))


@route(bp, "/brands/{brandId}", methods=["PUT"], reads=reads.USER_BRANDS)
def update_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    return brands.update(viewer, brand_id_param(brandId), json_body(bp.current_request))


@route(bp, "/brands/{brandId}/logo", methods=["POST"], reads=reads.USER_BRANDS)
def logo_upload(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    return brands.upload_logo(viewer, brand_id_param(brandId), json_body(bp.current_request))


@route(bp, "/brand/{otherBrandId}", methods=["GET"], reads=reads.SEES)
def public_brand(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    """Any brand, as the selected brand (X-Brand-Id) sees it."""
    return matches.public_view(viewer, brand_id_param(otherBrandId))


@route(bp, "/brands/{brandId}/block", methods=["POST"], reads=reads.ACTING)
def block_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    """Block another brand (the path's brand: not one of the caller's) as the selected brand
    (X-Brand-Id): both ways, silently."""
    return trust.block(viewer.brand, brand_id_param(brandId), json_body(bp.current_request))


@route(bp, "/brands/{brandId}/block", methods=["DELETE"], reads=reads.ACTING)
def unblock_brand(viewer: Viewer, brandId: str) -> dict:  # noqa: N803
    return trust.unblock(viewer.brand, brand_id_param(brandId))


@route(bp, "/brands/{brandId}/report", methods=["POST"], reads=reads.ACTING)
def report_brand(viewer: Viewer, brandId: str) -> Response:  # noqa: N803
    result = trust.report(viewer.brand, viewer.user, brand_id_param(brandId), json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))
