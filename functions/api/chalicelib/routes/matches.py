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


def _acting() -> tuple[Viewer, frozenset[int]]:
    """The viewer, and the brands hidden from it (blocked either way, suspended:
    tandem.services.visibility), read in the caller's check."""
    from tandem.services import entitlements, matches, visibility

    def also(brand_id: int | None, account_id: str) -> list:
        return entitlements.with_account(brand_id, account_id) + visibility.keys(brand_id)

    member = member_for_brand(bp.current_request, also=also)
    viewer = matches.viewer_for(member.brand, member.item(Account, member.user.account_id), member.user)
    return viewer, visibility.hidden_from(int(member.brand.brand_id), member.found)


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

    viewer, hidden = _acting()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), True, hidden)


@route(bp, "/matches/{otherBrandId}/saved", methods=["DELETE"], area=areas.MATCHES)
def unsave(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer, hidden = _acting()
    return matches.set_saved(viewer, brand_id_param(otherBrandId), False, hidden)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["PUT"], area=areas.MATCHES)
def dismiss(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer, hidden = _acting()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), True, hidden)


@route(bp, "/matches/{otherBrandId}/dismissed", methods=["DELETE"], area=areas.MATCHES)
def undo_dismiss(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import matches

    viewer, hidden = _acting()
    return matches.set_dismissed(viewer, brand_id_param(otherBrandId), False, hidden)


@route(bp, "/brands/search", methods=["GET"], area=areas.MATCHES)
def search_brands() -> dict:
    """The whole directory for the selected brand (or `userBrand`, which must be the same one)."""
    from tandem.services import brand_search

    query = bp.current_request.query_params or {}
    who = caller(bp.current_request, path_brand=query.get("userBrand") or None, default_brand=True)
    return brand_search.search(who.brand_id, query, access=who)
