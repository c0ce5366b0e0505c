"""A member's Slack connection (SPEC section 7, 'Slack'): status, OAuth v2 connect with a
single-use state bound to the member, the channel list and the chosen channel.

The Slack secret holds {"client_id", "client_secret", "encryption_key"} (AES-256 key for the
stored installation), and may name "api_url" / "authorize_url" (the local stand-in,
infra/local/fake_slack.py)."""

from __future__ import annotations

import json
import re
import time
from typing import Any
from urllib.parse import urlencode

from tandem.config import settings
from tandem.domain.notifications import SLACK_NOT_CONNECTED
from tandem.errors import ValidationError
from tandem.integrations import slack
from tandem.integrations.aws import get_secret
from tandem.observability import logger
from tandem.services import notification_settings
from tandem.store.notify import SlackConnection, SlackOAuthState

CALLBACK_PATH = "/api/slack/callback"
SETTINGS_PAGE = "/account/notifications/"
CHANNEL_ID = re.compile(r"^[CG][A-Z0-9]{2,30}$")
NEED_CHANNEL = "Choose a Slack channel for your notifications."
NOT_CONNECTED = SLACK_NOT_CONNECTED


def _secret() -> dict[str, Any]:
    return json.loads(get_secret(settings().slack_secret_name))


def app() -> slack.SlackApp:
    raw = _secret()
    return slack.SlackApp(
        client_id=raw["client_id"],
        client_secret=raw["client_secret"],
        redirect_uri=settings().site_url + CALLBACK_PATH,
        api_url=raw.get("api_url") or slack.API_URL,
        authorize_url=raw.get("authorize_url") or slack.AUTHORIZE_URL,
    )


def _encryption_key() -> str:
    key = _secret().get("encryption_key")
    if not key:
        raise RuntimeError("The Slack secret has no encryption_key.")
    return key


def _state_key() -> bytes:
    return slack.state_key(get_secret(settings().jwt_secret_name))


def token_of(user_id: str, connection: SlackConnection) -> str:
    return slack.decrypt_installation(_encryption_key(), connection.installation, user_id).bot_token


def status(user_id: str) -> dict[str, Any]:
    """connected, channelName; a revoked or removed app shows as disconnected (and is forgotten)."""
    connection = SlackConnection.find(user_id, consistent=True)
    if connection is None:
        return {"connected": False, "channelName": None, "teamName": None}
    try:
        result = slack.check_connection(app(), token_of(user_id, connection))
    except slack.SlackError as exc:
        result = slack.SlackResult(slack.DISCONNECTED, exc.message)
    if result.outcome == slack.DISCONNECTED:
        connection.delete()
        return {"connected": False, "channelName": None, "teamName": None, "message": result.reason}
    return {"connected": True, "channelName": connection.channel_name, "teamName": connection.team_name}


def auth_url(user_id: str) -> dict[str, str]:
    now = int(time.time())
    state = slack.new_state(_state_key(), user_id, now)
    SlackOAuthState(
        *SlackOAuthState.key(state.state_id),
        user_id=user_id,
        expires_at=state.expires,
        ttl=state.expires + 86400,
    ).save()
    return {"url": slack.authorize_url(app(), state.token)}


def callback(params: dict[str, str]) -> str:
    """Slack's redirect back: the path of the settings page to send the browser to, with
    `slack=connected` or `slackError=<message>`."""

    def back(**query: str) -> str:
        return f"{settings().site_url}{SETTINGS_PAGE}?{urlencode(query)}"

    try:
        state = slack.verify_state(_state_key(), params.get("state"), int(time.time()))
        if not SlackOAuthState.consume(state.state_id, state.user_id):
            raise slack.SlackError(slack.STATE_INVALID, "state_used")
        if params.get("error"):
            return back(slackError=slack.callback_error_message(params["error"]))
        installation = slack.exchange_code(app(), params.get("code"))
    except slack.SlackError as exc:
        logger.info("Slack connection refused", extra={"code": exc.code})
        return back(slackError=exc.message)
    SlackConnection(
        *SlackConnection.key(state.user_id),
        installation=slack.encrypt_installation(_encryption_key(), installation, state.user_id),
        team_name=installation.team_name,
        connected_at=int(time.time()),
    ).save()
    return back(slack="connected")


def _connected(user_id: str) -> tuple[SlackConnection, str]:
    connection = SlackConnection.find(user_id, consistent=True)
    if connection is None:
        raise ValidationError(NOT_CONNECTED)
    try:
        return connection, token_of(user_id, connection)
    except slack.SlackError as exc:
        raise ValidationError(exc.message) from None


def channels(user_id: str) -> dict[str, Any]:
    _, token = _connected(user_id)
    result = slack.list_channels(app(), token)
    if result.outcome != slack.OK:
        raise ValidationError(result.reason)
    return {"channels": [{"id": c["id"], "name": c["name"]} for c in result.channels]}


def select_channel(user_id: str, body: dict[str, Any]) -> dict[str, Any]:
    channel_id, channel_name = body.get("channelId"), body.get("channelName")
    if not channel_id:
        raise ValidationError(NEED_CHANNEL)
    if not isinstance(channel_id, str) or not CHANNEL_ID.match(channel_id):
        raise ValidationError("channelId is not a Slack channel id.")
    if not isinstance(channel_name, str) or not 0 < len(channel_name.strip()) <= 80:
        raise ValidationError("channelName must be the channel's name (1 to 80 characters).")
    connection, _ = _connected(user_id)
    connection.update(
        actions=[
            SlackConnection.channel_id.set(channel_id),
            SlackConnection.channel_name.set(channel_name.strip().lstrip("#")),
        ]
    )
    return {"connected": True, "channelName": connection.channel_name, "teamName": connection.team_name}


def disconnect(user_id: str) -> dict[str, Any]:
    """POST slack/disconnect: forget the member's Slack installation and turn Slack off in their
    notification settings. Nothing is asked of Slack: the stored token is simply never used again."""
    connection = SlackConnection.find(user_id, consistent=True)
    if connection is not None:
        connection.delete()
    notification_settings.slack_off(user_id)
    return {"connected": False, "channelName": None, "teamName": None}


def post(user_id: str, title: str, body: str, url: str | None) -> slack.SlackResult:
    """A notification to the member's chosen channel (the notifier)."""
    connection = SlackConnection.find(user_id)
    if connection is None or not connection.channel_id:
        return slack.SlackResult(slack.DISCONNECTED, "Slack isn't connected or has no channel.")
    try:
        token = token_of(user_id, connection)
    except slack.SlackError as exc:
        return slack.SlackResult(slack.DISCONNECTED, exc.message)
    return slack.post_message(
        app(),
        token,
        connection.channel_id,
        slack.message_text(title, body, url),
        channel_name=connection.channel_name or "",
    )
