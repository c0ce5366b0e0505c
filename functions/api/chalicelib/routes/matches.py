"""The Matches screens: potentials and saved lists, save / unsave, dismiss / undo."""

from __future__ import annotations

from chalice import Blueprint

from chalicelib.auth import caller
from chalicelib.door import route
from chalicelib.http import brand_id_param
from tandem.domain import account_types as areas
from tandem.services import viewer as reads
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/matches", methods=["GET"], area=areas.MATCHES)
def list_matches() -> dict:
    from tandem.services import matches

    who = caller(bp.current_request, default_brand=True)  # checked with the list's second read
    query = bp.current_request.query_params or {}
    brand_ids = matches.parse_brand_ids(query.get("brandIds"))
    which = query.get("list") or "potentials"
    return matches.list_matches(who.brand_id, which, brand_ids, access=who)


@route(bp, "/matches/{otherBrandId}/saved", methods=["PUT"], area=areas.MATCHES, reads=reads.SEES)
def save(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import matches

    return matches.set_saved(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/saved", methods=["DELETE"], area=areas.MATCHES, reads=reads.SEES)
def unsave(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    return matches.set_saved(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["PUT"], area=areas.MATCHES, reads=reads.SEES)
def dismiss(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["DELETE"], area=areas.MATCHES, reads=reads.SEES)
def undo_dismiss(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/brands/search", methods=["GET"], area=areas.MATCHES)
def search_brands() -> dict:
    """The whole directory for the selected brand (or `userBrand`, which must be the same one)."""
    from tandem.services import brand_search

    query = bp.current_request.query_params or {}
    who = caller(bp.current_request, path_brand=query.get("userBrand") or None, default_brand=True)
    return brand_search.search(who.brand_id, query, access=who)
