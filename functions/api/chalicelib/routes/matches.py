"""The Matches screens: potentials and saved lists, save / unsave, dismiss / undo."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.door import route
from chalicelib.http import brand_id_param, json_body
from tandem.domain import account_types as areas
from tandem.services import brand_search, matches
from tandem.services import viewer as reads
from tandem.services.viewer import Pending, Viewer

bp = Blueprint(__name__)


@route(bp, "/matches", methods=["GET"], area=areas.MATCHES, reads=reads.LIST_OF_BRAND)
def list_matches(pending: Pending) -> dict:
    query = bp.current_request.query_params or {}
    brand_ids = matches.parse_brand_ids(query.get("brandIds"))
    return matches.list_matches(pending, query.get("list") or "potentials", brand_ids)


@route(bp, "/matches/{otherBrandId}/saved", methods=["PUT"], area=areas.MATCHES, reads=reads.SEES)
def save(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return matches.set_saved(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/saved", methods=["DELETE"], area=areas.MATCHES, reads=reads.SEES)
def unsave(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return matches.set_saved(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["PUT"], area=areas.MATCHES, reads=reads.SEES)
def dismiss(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["DELETE"], area=areas.MATCHES, reads=reads.SEES)
def undo_dismiss(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), False)


@route(
    bp,
    "/brands/search",
    methods=["GET"],
    area=areas.MATCHES,
    reads=reads.LIST_OF_BRAND,
    brand_query="userBrand",
)
def search_brands(pending: Pending) -> dict:
    """The whole directory for the selected brand (or `userBrand`, which must be the same one)."""
    return brand_search.search(pending, bp.current_request.query_params or {})


@route(bp, "/brands/search/views", methods=["POST"], area=areas.MATCHES, reads=reads.ACTING)
def keep_search_view(viewer: Viewer) -> dict:
    """A search page the screen now shows (its `view`, as GET brands/search returned it)."""
    return brand_search.keep_view(viewer, json_body(bp.current_request).get("view"))
