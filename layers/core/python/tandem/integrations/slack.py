"""Slack: connecting a workspace (OAuth v2), choosing a channel, posting notifications, and the
stored installation encrypted at rest. Built on slack_sdk's WebClient; locally `api_url` points at
infra/local/fake_slack.py.

Connect flow (the lead's routes):
1. GET slack/auth: `state = new_state(state_key(secret), user_id, now)`; store `state.state_id`
   (single use, expires with `state.expires`); answer `{"url": authorize_url(app, state.token)}`.
2. Slack sends the browser back to `app.redirect_uri` with `code` and `state` (or `error`).
   The callback checks `verify_state(...)` and that its state id is still unused (delete it),
   then `exchange_code(app, code)` and stores `encrypt_installation(key, installation, owner)`.
3. GET slack/channels: `list_channels(app, token)`; POST slack/select-channel stores the choice.
4. The notifier: `post_message(app, token, channel_id, message_text(...))` and acts on `.outcome`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlencode

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from tandem.observability import count_event

API_URL = "https://slack.com/api/"
AUTHORIZE_URL = "https://slack.com/oauth/v2/authorize"
# Post, read the channel list (public, and private ones the app was invited to), join public ones.
BOT_SCOPES = ("chat:write", "channels:read", "groups:read", "channels:join")
STATE_TTL = 600  # seconds: the member has 10 minutes on Slack's page
DEFAULT_TIMEOUT = 10
MAX_CHANNEL_PAGES = 50  # 200 a page: 10,000 channels
LIST_RETRY_WAIT = 3  # seconds a channel list waits out a rate limit before giving up

SENT, INVITE_APP, CHANNEL_NOT_FOUND, DISCONNECTED, RETRY, FAILED, OK = (
    "sent",
    "invite_app",
    "channel_not_found",
    "disconnected",
    "retry",
    "failed",
    "ok",
)
TOKEN_ERRORS = (
    "invalid_auth",
    "token_revoked",
    "account_inactive",
    "not_authed",
    "token_expired",
    "no_permission",
)


@dataclass(frozen=True)
class SlackApp:
    client_id: str
    client_secret: str
    redirect_uri: str
    api_url: str = API_URL
    authorize_url: str = AUTHORIZE_URL
    timeout: int = DEFAULT_TIMEOUT

    def client(self, token: str | None = None, *, wait_out_rate_limits: bool = False) -> Any:
        from slack_sdk import WebClient
        from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler

        handlers: list[Any] = [ConnectionErrorRetryHandler(max_retry_count=1)]
        if wait_out_rate_limits:
            handlers.append(_short_rate_limit_handler(LIST_RETRY_WAIT))
        return WebClient(token=token, base_url=self.api_url, timeout=self.timeout, retry_handlers=handlers)


def _short_rate_limit_handler(max_wait: int) -> Any:
    """slack_sdk's RateLimitErrorRetryHandler (sleeps Retry-After, then retries once), but only
    when Slack asks for at most `max_wait` seconds: a screen should not hang for a minute."""
    from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

    class ShortRateLimitRetryHandler(RateLimitErrorRetryHandler):
        def _can_retry(self, *, state: Any, request: Any, response: Any = None, error: Any = None) -> bool:
            if response is None or response.status_code != 429:
                return False
            values = {k.lower(): v for k, v in response.headers.items()}.get("retry-after") or ["1"]
            value = values[0] if isinstance(values, list) else values
            return str(value).isdigit() and int(value) <= max_wait

    return ShortRateLimitRetryHandler(max_retry_count=1)


# ---------------------------------------------------------------- OAuth state (pure)


@dataclass(frozen=True)
class OAuthState:
    state_id: str  # store it; the callback consumes it once
    user_id: str
    expires: int
    token: str  # the `state` query parameter


class SlackError(Exception):
    """A Slack step failed; `message` is for the member."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


STATE_INVALID = "This Slack connection attempt is not valid. Please connect Slack again."
STATE_EXPIRED = "The Slack connection took more than 10 minutes. Please connect Slack again."
STATE_OTHER_MEMBER = "This Slack connection was started by someone else. Please connect Slack again."
_ID = re.compile(r"^[A-Za-z0-9_]{1,64}$")


def state_key(secret: str) -> bytes:
    """A key of its own for OAuth states, derived from the app's signing secret."""
    return hmac.new(secret.encode(), b"tandem slack oauth state v1", hashlib.sha256).digest()


def _state_signature(key: bytes, state_id: str, user_id: str, expires: int) -> str:
    digest = hmac.new(key, f"slack-state|{state_id}|{user_id}|{expires}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_state(key: bytes, user_id: str, now: int) -> OAuthState:
    if not _ID.match(user_id):
        raise ValueError("A user id is letters, digits and '_' only.")
    state_id = secrets.token_hex(16)
    expires = int(now) + STATE_TTL
    token = f"{state_id}.{user_id}.{expires}.{_state_signature(key, state_id, user_id, expires)}"
    return OAuthState(state_id, user_id, expires, token)


def verify_state(key: bytes, token: object, now: int, user_id: str | None = None) -> OAuthState:
    """The state Slack sent back, if we made it, it is not expired, and (given `user_id`) it was
    started by that member. The caller still checks that `state_id` was not used before."""
    if not isinstance(token, str) or len(token) > 300:
        raise SlackError(STATE_INVALID, "state_invalid")
    parts = token.split(".")
    if len(parts) != 4 or not all(_ID.match(p) for p in parts[:2]) or not parts[2].isdigit():
        raise SlackError(STATE_INVALID, "state_invalid")
    state_id, owner, expires_text, signature = parts
    expires = int(expires_text)
    if not hmac.compare_digest(_state_signature(key, state_id, owner, expires), signature):
        raise SlackError(STATE_INVALID, "state_invalid")
    if now >= expires:
        raise SlackError(STATE_EXPIRED, "state_expired")
    if user_id is not None and not hmac.compare_digest(owner, user_id):
        raise SlackError(STATE_OTHER_MEMBER, "state_other_member")
    return OAuthState(state_id, owner, expires, token)


def authorize_url(app: SlackApp, state: str) -> str:
    query = {
        "client_id": app.client_id,
        "scope": ",".join(BOT_SCOPES),
        "state": state,
        "redirect_uri": app.redirect_uri,
    }
    return f"{app.authorize_url}?{urlencode(query)}"


CALLBACK_ERRORS = {
    "access_denied": "Slack wasn't connected: the request was cancelled on Slack's page.",
}


def callback_error_message(error: str) -> str:
    """The member-facing message for Slack's `error` query parameter on the redirect."""
    return CALLBACK_ERRORS.get(error, "Slack wasn't connected. Please try again.")


# ---------------------------------------------------------------- installation


@dataclass(frozen=True)
class Installation:
    team_id: str
    team_name: str
    bot_token: str
    bot_user_id: str
    scope: str
    app_id: str = ""
    installed_at: int = field(default_factory=lambda: int(time.time()))

    def __repr__(self) -> str:  # never print the token
        return f"Installation(team_id={self.team_id!r}, team_name={self.team_name!r}, bot_token='***')"


def _api_error(exc: Exception) -> tuple[str, int | None, int | None]:
    """(Slack error code, HTTP status, Retry-After seconds) of a SlackApiError."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    data = getattr(response, "data", None)
    code = data.get("error", "") if isinstance(data, dict) else ""
    headers = {k.lower(): v for k, v in (getattr(response, "headers", None) or {}).items()}
    raw = headers.get("retry-after")
    raw = raw[0] if isinstance(raw, list) else raw
    retry_after = int(raw) if raw is not None and str(raw).isdigit() else None
    return code or ("ratelimited" if status == 429 else f"http_{status}"), status, retry_after


def exchange_code(app: SlackApp, code: object) -> Installation:
    """oauth.v2.access: the code from the redirect for the workspace's bot token."""
    from slack_sdk.errors import SlackApiError

    if not isinstance(code, str) or not code or len(code) > 500:
        raise SlackError("Slack didn't send a sign-in code. Please connect Slack again.", "no_code")
    try:
        answer = app.client().oauth_v2_access(
            client_id=app.client_id, client_secret=app.client_secret, code=code, redirect_uri=app.redirect_uri
        )
    except SlackApiError as exc:
        error, _, _ = _api_error(exc)
        if error in ("invalid_code", "code_already_used", "code_expired"):
            raise SlackError(
                "That Slack sign-in has expired or was already used. Please connect Slack again.", error
            ) from None
        raise SlackError(f"Slack refused the connection ({error}). Please try again.", error) from None
    except OSError as exc:  # URLError, timeouts
        raise SlackError("Slack didn't answer. Please try again in a minute.", type(exc).__name__) from None
    if answer.get("token_type") != "bot" or not answer.get("access_token"):
        raise SlackError(
            "Slack didn't grant the app a bot token. Please connect Slack again.", "no_bot_token"
        )
    team = answer.get("team") or {}
    return Installation(
        team_id=str(team.get("id", "")),
        team_name=str(team.get("name", "")),
        bot_token=str(answer["access_token"]),
        bot_user_id=str(answer.get("bot_user_id", "")),
        scope=str(answer.get("scope", "")),
        app_id=str(answer.get("app_id", "")),
    )


# ---------------------------------------------------------------- encryption at rest


ENCRYPTION_VERSION = "v1"
UNREADABLE = "The saved Slack connection can't be read. Please connect Slack again."


def new_encryption_key() -> str:
    """A 256-bit AES-GCM key, base64url, for the secrets (the local stack makes one on first start)."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


def _aes(key: str) -> Any:
    try:
        raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    except ValueError:
        raise ValueError("The Slack encryption key is not base64url.") from None
    if len(raw) != 32:
        raise ValueError("The Slack encryption key must be 32 bytes (AES-256).")
    return AESGCM(raw)


def _aad(owner: str) -> bytes:
    return f"tandem slack installation {ENCRYPTION_VERSION}|{owner}".encode()


def encrypt_installation(key: str, installation: Installation, owner: str) -> str:
    """AES-256-GCM with a random 96-bit nonce; the owner (user or account id) is authenticated
    data, so a stored blob copied onto another member's record does not decrypt."""
    nonce = os.urandom(12)
    sealed = _aes(key).encrypt(nonce, json.dumps(asdict(installation)).encode(), _aad(owner))
    return f"{ENCRYPTION_VERSION}.{base64.urlsafe_b64encode(nonce + sealed).decode().rstrip('=')}"


def decrypt_installation(key: str, blob: str, owner: str) -> Installation:
    version, _, body = blob.partition(".")
    if version != ENCRYPTION_VERSION or not body:
        raise SlackError(UNREADABLE, "unreadable")
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        plain = _aes(key).decrypt(raw[:12], raw[12:], _aad(owner))
        return Installation(**json.loads(plain))
    except (InvalidTag, ValueError, TypeError):
        raise SlackError(UNREADABLE, "unreadable") from None


# ---------------------------------------------------------------- Web API calls


@dataclass(frozen=True)
class SlackResult:
    outcome: str  # sent / ok, invite_app, channel_not_found, disconnected, retry, failed
    reason: str = ""  # for the member (the test notification's per-channel line)
    error: str = ""  # Slack's error code, for logs
    retry_after: int | None = None
    ts: str = ""  # the posted message's timestamp
    joined: bool = False  # the app joined the public channel to post
    channels: list[dict[str, Any]] = field(default_factory=list)


DISCONNECTED_REASON = (
    "Slack is disconnected (the app was removed or its access revoked). Please connect Slack again."
)


def _failure(exc: Exception, channel_name: str = "") -> SlackResult:
    from slack_sdk.errors import SlackApiError

    if not isinstance(exc, SlackApiError):  # network: URLError, timeouts
        return SlackResult(RETRY, "Slack didn't answer; we'll try again.", type(exc).__name__)
    error, status, retry_after = _api_error(exc)
    where = f"#{channel_name}" if channel_name else "the channel"
    if status == 429 or error == "ratelimited":
        return SlackResult(RETRY, "Slack asked us to slow down; we'll try again.", error, retry_after)
    if status is not None and status >= 500:
        return SlackResult(RETRY, "Slack had a problem; we'll try again.", error, retry_after)
    if error in TOKEN_ERRORS:
        return SlackResult(DISCONNECTED, DISCONNECTED_REASON, error)
    if error == "channel_not_found":
        return SlackResult(
            CHANNEL_NOT_FOUND,
            f"Slack can't find {where}: if it is private, invite the app to it (/invite @Tandem); "
            "otherwise choose another channel.",
            error,
        )
    if error == "is_archived":
        return SlackResult(FAILED, f"{where} is archived. Please choose another channel.", error)
    if error == "missing_scope":
        return SlackResult(FAILED, "The app is missing a permission. Please connect Slack again.", error)
    return SlackResult(FAILED, f"Slack refused the message ({error}).", error)


def _invite(channel_name: str, error: str) -> SlackResult:
    where = f"#{channel_name}" if channel_name else "the channel"
    return SlackResult(
        INVITE_APP, f"The app is not in {where}. Invite it there with /invite @Tandem, then try again.", error
    )


def _count_sent() -> None:
    count_event("NotificationSentSlack")


def post_message(
    app: SlackApp,
    token: str,
    channel_id: str,
    text: str,
    *,
    blocks: list[dict[str, Any]] | None = None,
    channel_name: str = "",
) -> SlackResult:
    """chat.postMessage. Not in a public channel: join it once and post again; a private channel
    (joining is not allowed) asks the member to invite the app. Never raises for Slack's answers."""
    from slack_sdk.errors import SlackApiError

    client = app.client(token)
    message: dict[str, Any] = {"channel": channel_id, "text": text, "unfurl_links": False}
    if blocks:
        message["blocks"] = blocks
    try:
        answer = client.chat_postMessage(**message)
        _count_sent()
        return SlackResult(SENT, ts=str(answer.get("ts", "")))
    except SlackApiError as exc:
        if _api_error(exc)[0] != "not_in_channel":
            return _failure(exc, channel_name)
    except OSError as exc:
        return _failure(exc, channel_name)
    try:
        client.conversations_join(channel=channel_id)
    except SlackApiError as exc:
        error = _api_error(exc)[0]
        if error in ("method_not_supported_for_channel_type", "channel_not_found", "missing_scope"):
            return _invite(channel_name, error)
        return _failure(exc, channel_name)
    except OSError as exc:
        return _failure(exc, channel_name)
    try:
        answer = client.chat_postMessage(**message)
        _count_sent()
        return SlackResult(SENT, ts=str(answer.get("ts", "")), joined=True)
    except SlackApiError as exc:
        if _api_error(exc)[0] == "not_in_channel":
            return _invite(channel_name, "not_in_channel")
        return _failure(exc, channel_name)
    except OSError as exc:
        return _failure(exc, channel_name)


def list_channels(app: SlackApp, token: str, *, max_pages: int = MAX_CHANNEL_PAGES) -> SlackResult:
    """Every channel the chooser may offer, all pages: public ones (the app joins when it first
    posts) and private ones the app was invited to; archived ones left out; sorted by name.
    `.channels` is [{id, name, is_private, is_member}]."""
    from slack_sdk.errors import SlackApiError

    client = app.client(token, wait_out_rate_limits=True)
    channels: list[dict[str, Any]] = []
    cursor = None
    try:
        for _ in range(max_pages):
            answer = client.conversations_list(
                types="public_channel,private_channel", exclude_archived=True, limit=200, cursor=cursor
            )
            for channel in answer.get("channels") or []:
                if channel.get("is_archived"):
                    continue
                channels.append(
                    {
                        "id": str(channel["id"]),
                        "name": str(channel.get("name", "")),
                        "is_private": bool(channel.get("is_private")),
                        "is_member": bool(channel.get("is_member")),
                    }
                )
            cursor = (answer.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                break
    except (SlackApiError, OSError) as exc:
        return _failure(exc)
    channels.sort(key=lambda c: c["name"].lower())
    return SlackResult(OK, channels=channels)


def check_connection(app: SlackApp, token: str) -> SlackResult:
    """auth.test, for GET slack/status: `ok`, `disconnected` (revoked / removed) or `retry`."""
    from slack_sdk.errors import SlackApiError

    try:
        app.client(token).auth_test()
    except (SlackApiError, OSError) as exc:
        return _failure(exc)
    return SlackResult(OK)


def revoke(app: SlackApp, token: str) -> SlackResult:
    """auth.revoke when the member disconnects (an already revoked token counts as done)."""
    from slack_sdk.errors import SlackApiError

    try:
        app.client(token).auth_revoke()
    except (SlackApiError, OSError) as exc:
        result = _failure(exc)
        return SlackResult(OK) if result.outcome == DISCONNECTED else result
    return SlackResult(OK)


# ---------------------------------------------------------------- message text


def escape(text: str) -> str:
    """Slack's three control characters (https://api.slack.com/reference/surfaces/formatting#escaping):
    brand names and messages members typed cannot ping @channel or fake a link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def message_text(
    title: str, body: str = "", url: str | None = None, link_label: str = "Open in Tandem"
) -> str:
    """A notification as Slack mrkdwn: bold title, body, link. Every part is escaped."""
    lines = [f"*{escape(title)}*"]
    if body:
        lines.append(escape(body))
    if url:
        if not url.startswith(("https://", "http://")) or any(ch in url for ch in "<>| \n"):
            raise ValueError("A Slack message link must be an http(s) URL.")
        lines.append(f"<{url}|{escape(link_label)}>")
    return "\n".join(lines)
