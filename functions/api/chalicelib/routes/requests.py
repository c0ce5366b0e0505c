"""Connection requests, connections, declines, and the email quick-action links.

Every private route acts as the selected brand (`X-Brand-Id`, checked by `member_for_brand`);
a request of another brand is 404, a request of the brand in the wrong role is 403.
"""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.auth import Member, caller, member_for_brand
from chalicelib.http import JSON_HEADERS, brand_id_param, json_body, route
from tandem.domain import account_types as areas
from tandem.store.models import Account, BrandSeen, Key, TandemModel

bp = Blueprint(__name__)


def _query(name: str) -> str | None:
    params = bp.current_request.query_params or {}
    value = params.get(name)
    return value if value else None


def _with_news(brand_id: int | None, account_id: str) -> list[tuple[type[TandemModel], Key]]:
    """The lists read what is new to the brand and the account (whose plan says whether names
    are shown) with the caller's check (one BatchGetItem)."""
    from tandem.services import visibility

    account = [(Account, Account.key(account_id))] + visibility.keys(brand_id)
    return account + ([(BrandSeen, BrandSeen.key(brand_id))] if brand_id is not None else [])


def _lister() -> tuple[Member, int, BrandSeen]:
    member = member_for_brand(bp.current_request, also=_with_news)
    brand_id = int(member.brand.brand_id)
    return member, brand_id, member.item(BrandSeen, brand_id) or BrandSeen.at(brand_id)


def _hidden(member: Member) -> frozenset[int]:
    """Blocked (either way) and suspended brands, read with the caller (tandem.services.visibility)."""
    from tandem.services import visibility

    return visibility.hidden_from(int(member.brand.brand_id), member.found)


def _sees_names(member: Member) -> bool:
    from tandem.services import entitlements

    return entitlements.sees_brand_names(member.item(Account, member.user.account_id), member.user)


@route(bp, "/requests", methods=["POST"], area=areas.SEND_REQUESTS)
def send_request() -> Response:
    from tandem.services import requests

    member = member_for_brand(bp.current_request)
    result = requests.send(member.brand, member.user, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/requests", methods=["GET"])
def list_requests() -> dict:
    from tandem.services import requests

    member, brand_id, seen = _lister()
    return requests.list_requests(
        brand_id,
        _query("box") or "received",
        _query("cursor"),
        seen=seen,
        sees_names=_sees_names(member),
        hidden=_hidden(member),
    )


@route(bp, "/requests/{requestId}", methods=["GET"])
def get_request(requestId: str) -> dict:  # noqa: N803 (the API's parameter name)
    from tandem.services import requests

    member = member_for_brand(bp.current_request, also=_with_news)
    return requests.view(
        requestId, int(member.brand.brand_id), sees_names=_sees_names(member), hidden=_hidden(member)
    )


def _visibility(brand_id: int | None, _account_id: str) -> list[tuple[type[TandemModel], Key]]:
    from tandem.services import visibility

    return visibility.keys(brand_id)


def _act(action: str, request_id: str) -> dict:
    from tandem.services import requests

    member = member_for_brand(bp.current_request, also=_visibility)
    body = json_body(bp.current_request) if action == "decline" else None
    return requests.act(
        action,
        request_id,
        member.brand,
        body,
        user=member.user,
        hidden=_hidden(member),
    )


@route(bp, "/requests/{requestId}/accept", methods=["POST"])
def accept_request(requestId: str) -> dict:  # noqa: N803
    return _act("accept", requestId)


@route(bp, "/requests/{requestId}/decline", methods=["POST"])
def decline_request(requestId: str) -> dict:  # noqa: N803
    return _act("decline", requestId)


@route(bp, "/requests/{requestId}/cancel", methods=["POST"], area=areas.SEND_REQUESTS)
def cancel_request(requestId: str) -> dict:  # noqa: N803
    return _act("cancel", requestId)


@route(bp, "/connections", methods=["GET"], area=areas.CONNECTIONS)
def list_connections() -> dict:
    from tandem.services import requests

    who = caller(bp.current_request, default_brand=True)  # checked with the list's second read
    return requests.list_connections(who.brand_id, _query("cursor"), access=who)


@route(bp, "/connections/{otherBrandId}", methods=["GET"], area=areas.CONNECTIONS)
def get_connection(otherBrandId: str) -> dict:  # noqa: N803
    from tandem.services import requests

    member = member_for_brand(bp.current_request, also=_visibility)
    return requests.connection_with(int(member.brand.brand_id), brand_id_param(otherBrandId), _hidden(member))


@route(bp, "/declines", methods=["GET"], area=areas.DECLINES)
def list_declines() -> dict:
    from tandem.services import requests

    member, brand_id, seen = _lister()
    return requests.list_declines(
        brand_id,
        _query("dir") or "out",
        _query("cursor"),
        seen=seen,
        sees_names=_sees_names(member),
        hidden=_hidden(member),
    )


@route(bp, "/quick-action/{action}/{actioner}/{actionee}/{unique}", methods=["GET"], public=True)
def quick_action_preview(action: str, actioner: str, actionee: str, unique: str) -> dict:
    """Checks the link and shows the request; changes nothing (the page's button POSTs)."""
    from tandem.services import requests

    return requests.quick_action_preview(action, actioner, actionee, unique)


@route(bp, "/quick-action/{action}/{actioner}/{actionee}/{unique}", methods=["POST"], public=True)
def quick_action(action: str, actioner: str, actionee: str, unique: str) -> dict:
    from tandem.services import requests

    return requests.quick_action(action, actioner, actionee, unique)
