"""The Matches screens: potentials and saved lists, save / unsave, dismiss / undo."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import member_for_brand
from chalicelib.http import brand_id_param, route
from tandem.services import accounts, matches

bp = Blueprint(__name__)


def _viewer() -> matches.Viewer:
    member = member_for_brand(bp.current_request)
    return matches.viewer_for(member.brand, accounts.get_account(member.user.account_id))


@route(bp, "/matches", methods=["GET"])
def list_matches() -> dict:
    viewer = _viewer()
    query = bp.current_request.query_params or {}
    brand_ids = matches.parse_brand_ids(query.get("brandIds"))
    return matches.list_matches(viewer, query.get("list") or "potentials", brand_ids)


@route(bp, "/matches/{otherBrandId}/saved", methods=["PUT"])
def save(otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    viewer = _viewer()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/saved", methods=["DELETE"])
def unsave(otherBrandId: str) -> dict:  # noqa: N803
    viewer = _viewer()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["PUT"])
def dismiss(otherBrandId: str) -> dict:  # noqa: N803
    viewer = _viewer()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["DELETE"])
def undo_dismiss(otherBrandId: str) -> dict:  # noqa: N803
    viewer = _viewer()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), False)
