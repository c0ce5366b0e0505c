"""Notification settings, one-click unsubscribe and browser push (SPEC section 7,
'Notifications'). Settings are the signed-in user's own; every route still checks the brand
the caller names, like every other private route."""

from __future__ import annotations

import time

from chalice import Blueprint, Response

from chalicelib.door import route
from chalicelib.http import JSON_HEADERS, json_body
from tandem.domain import notifications, unsubscribe
from tandem.errors import TandemError, ValidationError
from tandem.services import notification_settings, push, sign_in_links, slack_connection
from tandem.services import viewer as reads
from tandem.services.notify import unsubscribe_signing_key
from tandem.services.viewer import Viewer

bp = Blueprint(__name__)


@route(bp, "/notifications/options", methods=["GET"], reads=reads.CALLER)
def options(viewer: Viewer) -> dict:
    return notification_settings.options()


def _timezone_offset() -> str | None:
    """The member's X-Timezone-Offset (the web app sends it with every request): it places the
    daily digest at 9:00 their time."""
    return (bp.current_request.headers or {}).get("x-timezone-offset")


@route(bp, "/notifications/user", methods=["GET"], reads=reads.CALLER)
def user_settings(viewer: Viewer) -> dict:
    return notification_settings.of_user(viewer.user.user_id, timezone_offset=_timezone_offset())


@route(bp, "/notifications/user", methods=["PUT"], reads=reads.CALLER)
def update_user_settings(viewer: Viewer) -> dict:
    user_id = viewer.user.user_id
    return notification_settings.update(
        user_id, json_body(bp.current_request), timezone_offset=_timezone_offset()
    )


class LinkError(TandemError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _unsubscribe_link(token: str):
    """The user and source an unsubscribe token names; LinkError 400 forged, 410 expired."""
    try:
        return unsubscribe.verify_unsubscribe(unsubscribe_signing_key(), token, int(time.time()))
    except unsubscribe.UnsubscribeError as exc:
        raise LinkError(exc.message, exc.status) from None


@route(bp, "/notifications/unsubscribe/{token}", public=True, methods=["GET"])
def unsubscribe_link(token: str) -> dict:
    """What the unsubscribe page shows before the click: the kind of email the link switches
    off, or why the link does not work (the POST's own 400 / 410). Changes nothing."""
    item = _unsubscribe_link(token)
    return {"source": item.source, "label": notifications.get_source(item.source).label}


@route(
    bp,
    "/notifications/unsubscribe/{token}",
    public=True,
    methods=["POST"],
    content_types=[
        "application/x-www-form-urlencoded",
        "application/json",
        "text/plain",
        "multipart/form-data",
    ],
)
def one_click_unsubscribe(token: str) -> dict:
    """RFC 8058: mail providers POST `List-Unsubscribe=One-Click`; the unsubscribe page's button
    POSTs too. The signed token is the credential; only that source's email goes off."""
    item = _unsubscribe_link(token)
    notification_settings.unsubscribe_email(item.user_id, item.source)
    label = notifications.get_source(item.source).label
    return {"source": item.source, "message": f"You won't get {label} emails any more."}


@route(bp, "/browser-notifications/vapid-public-key", methods=["GET"], reads=reads.CALLER)
def vapid_public_key(viewer: Viewer) -> dict:
    return {"publicKey": push.public_key()}


@route(bp, "/browser-notifications/subscribe", methods=["POST"], reads=reads.CALLER)
def subscribe(viewer: Viewer) -> Response:
    user_id = viewer.user.user_id
    body = json_body(bp.current_request)
    raw = body.get("subscription", body) if isinstance(body.get("subscription"), dict) else body
    push.subscribe(user_id, raw)
    return Response(body={"subscribed": True}, status_code=201, headers=dict(JSON_HEADERS))


@route(bp, "/browser-notifications/send-test", methods=["POST"], reads=reads.CALLER)
def send_test(viewer: Viewer) -> dict:
    user_id = viewer.user.user_id
    body = json_body(bp.current_request)
    if not body:
        raise ValidationError("Send the test notification's title, body and url.")
    return push.send_test(user_id, body)


@route(bp, "/notifications/sign-in-links", methods=["GET"], reads=reads.CALLER)
def sign_in_links_get(viewer: Viewer) -> dict:
    return sign_in_links.settings_of(viewer.user)


@route(bp, "/notifications/sign-in-links", methods=["PUT"], reads=reads.CALLER)
def sign_in_links_put(viewer: Viewer) -> dict:
    user = viewer.user
    return sign_in_links.set_enabled(user, json_body(bp.current_request))


@route(bp, "/slack/status", methods=["GET"], reads=reads.CALLER)
def slack_status(viewer: Viewer) -> dict:
    return slack_connection.status(viewer.user.user_id)


@route(bp, "/slack/auth", methods=["GET"], reads=reads.CALLER)
def slack_auth(viewer: Viewer) -> dict:
    return slack_connection.auth_url(viewer.user.user_id)


@route(bp, "/slack/channels", methods=["GET"], reads=reads.CALLER)
def slack_channels(viewer: Viewer) -> dict:
    return slack_connection.channels(viewer.user.user_id)


@route(bp, "/slack/select-channel", methods=["POST"], reads=reads.CALLER)
def slack_select_channel(viewer: Viewer) -> dict:
    user_id = viewer.user.user_id
    return slack_connection.select_channel(user_id, json_body(bp.current_request))


@route(bp, "/slack/disconnect", methods=["POST"], reads=reads.CALLER)
def slack_disconnect(viewer: Viewer) -> dict:
    return slack_connection.disconnect(viewer.user.user_id)


@route(bp, "/slack/callback", public=True, methods=["GET"])
def slack_callback() -> Response:
    """Slack sends the browser here after its consent page; the signed state names the member."""
    params = dict(bp.current_request.query_params or {})
    location = slack_connection.callback(params)
    return Response(body="", status_code=302, headers={"Location": location, "Cache-Control": "no-store"})
