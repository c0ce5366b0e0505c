"""The Matches screens: potentials and saved lists, save / unsave, dismiss / undo."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chalice import Blueprint

from chalicelib.auth import caller, member_for_brand
from chalicelib.http import brand_id_param, route
from tandem.domain import account_types as areas
from tandem.store.models import Account

if TYPE_CHECKING:
    from tandem.services.matches import Viewer

bp = Blueprint(__name__)


def _viewer() -> Viewer:
    from tandem.services import entitlements, matches

    member = member_for_brand(bp.current_request, also=entitlements.with_account)
    return matches.viewer_for(member.brand, member.item(Account, member.user.account_id))


@route(bp, "/matches", methods=["GET"], area=areas.MATCHES)
def list_matches() -> dict:
    from tandem.services import matches

    who = caller(bp.current_request, default_brand=True)  # checked with the list's second read
    query = bp.current_request.query_params or {}
    brand_ids = matches.parse_brand_ids(query.get("brandIds"))
    which = query.get("list") or "potentials"
    return matches.list_matches(who.brand_id, which, brand_ids, access=who)


@route(bp, "/matches/{otherBrandId}/saved", methods=["PUT"], area=areas.MATCHES)
def save(otherBrandId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import matches

    viewer = _viewer()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/saved", methods=["DELETE"], area=areas.MATCHES)
def unsave(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer = _viewer()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["PUT"], area=areas.MATCHES)
def dismiss(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer = _viewer()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), True)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["DELETE"], area=areas.MATCHES)
def undo_dismiss(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer = _viewer()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), False)


@route(bp, "/brands/search", methods=["GET"], area=areas.MATCHES)
def search_brands() -> dict:
    """The whole directory for the selected brand (or `userBrand`, which must be the same one)."""
    from tandem.services import brand_search

    query = bp.current_request.query_params or {}
    who = caller(bp.current_request, path_brand=query.get("userBrand") or None, default_brand=True)
    return brand_search.search(who.brand_id, query, access=who)
