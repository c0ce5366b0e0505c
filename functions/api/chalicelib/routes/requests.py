"""Connection requests, connections, declines, and the email quick-action links.

Every private route acts as the selected brand (`X-Brand-Id`, checked at the door,
chalicelib.door); a request of another brand is 404, a request of the brand in the wrong role
is 403. Each names what its use case reads with the caller (tandem.services.viewer).
"""

from __future__ import annotations

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, brand_id_param, json_body
from tandem.domain import account_types as areas
from tandem.services import requests
from tandem.services import viewer as reads
from tandem.services.viewer import Pending, Viewer

bp = Blueprint(__name__)


def _query(name: str) -> str | None:
    params = bp.current_request.query_params or {}
    value = params.get(name)
    return value if value else None


@route(bp, "/requests", methods=["POST"], area=areas.SEND_REQUESTS, reads=reads.CREDITS)
def send_request(viewer: Viewer) -> Response:
    result = requests.send(viewer, json_body(bp.current_request))
    return Response(body=result, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/requests", methods=["GET"], reads=reads.LISTS)
def list_requests(viewer: Viewer) -> dict:
    return requests.list_requests(viewer, _query("box") or "received", _query("cursor"))


@route(bp, "/requests/{requestId}", methods=["GET"], reads=reads.SEES)
def get_request(viewer: Viewer, requestId: str) -> dict:  # noqa: N803 (the API's parameter name)
    return requests.view(viewer, requestId)


def _act(viewer: Viewer, action: str, request_id: str) -> dict:
    body = json_body(bp.current_request) if action == "decline" else None
    return requests.act(viewer, action, request_id, body)


@route(bp, "/requests/{requestId}/accept", methods=["POST"], reads=reads.CREDITS)
def accept_request(viewer: Viewer, requestId: str) -> dict:  # noqa: N803
    return _act(viewer, "accept", requestId)


@route(bp, "/requests/{requestId}/decline", methods=["POST"], reads=reads.CREDITS)
def decline_request(viewer: Viewer, requestId: str) -> dict:  # noqa: N803
    return _act(viewer, "decline", requestId)


@route(bp, "/requests/{requestId}/cancel", methods=["POST"], area=areas.SEND_REQUESTS, reads=reads.CREDITS)
def cancel_request(viewer: Viewer, requestId: str) -> dict:  # noqa: N803
    return _act(viewer, "cancel", requestId)


@route(bp, "/connections", methods=["GET"], area=areas.CONNECTIONS, reads=reads.LIST_OF_BRAND)
def list_connections(pending: Pending) -> dict:
    return requests.list_connections(pending, _query("cursor"))


@route(bp, "/connections/{otherBrandId}", methods=["GET"], area=areas.CONNECTIONS, reads=reads.SEES)
def get_connection(viewer: Viewer, otherBrandId: str) -> dict:  # noqa: N803
    return requests.connection_with(viewer, brand_id_param(otherBrandId))


@route(bp, "/declines", methods=["GET"], area=areas.DECLINES, reads=reads.LISTS)
def list_declines(viewer: Viewer) -> dict:
    return requests.list_declines(viewer, _query("dir") or "out", _query("cursor"))


@route(bp, "/quick-action/{action}/{actioner}/{actionee}/{unique}", methods=["GET"], public=True)
def quick_action_preview(action: str, actioner: str, actionee: str, unique: str) -> dict:
    """Checks the link and shows the request; changes nothing (the page's button POSTs)."""
    return requests.quick_action_preview(action, actioner, actionee, unique)


@route(bp, "/quick-action/{action}/{actioner}/{actionee}/{unique}", methods=["POST"], public=True)
def quick_action(action: str, actioner: str, actionee: str, unique: str) -> dict:
    return requests.quick_action(action, actioner, actionee, unique)
