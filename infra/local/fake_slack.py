"""A local stand-in for Slack's OAuth v2 and the Web API methods Tandem uses, for tests and the
local stack. `slack_sdk.WebClient(base_url=f"{fake.url}/api/")` talks to it unchanged.

Slack's behaviour kept (https://api.slack.com/methods):
- Every answer is HTTP 200 with `{"ok": false, "error": "..."}` on failure, except rate limits:
  HTTP 429 with `Retry-After` and `{"ok": false, "error": "ratelimited"}`.
- Tokens arrive as `Authorization: Bearer` (or a `token` parameter); unknown token `invalid_auth`,
  none `not_authed`, revoked `token_revoked`. Parameters come as query, form or JSON.
- `GET /oauth/v2/authorize?client_id&scope&state&redirect_uri`: a page with 'Allow' and 'Cancel';
  Allow redirects to redirect_uri with `code` and `state`, Cancel with `error=access_denied`.
- `oauth.v2.access` (client id and secret as HTTP Basic or form fields; code single-use, 10
  minutes; redirect_uri must match the authorize request's) -> bot token, team, scope, bot user.
- `auth.test`, `auth.revoke`, `conversations.list` (types, limit, cursor; archived left out with
  exclude_archived; private channels only where the bot is a member), `conversations.join`
  (public only: `method_not_supported_for_channel_type` for private), `chat.postMessage`
  (`not_in_channel` for a public channel the bot has not joined, `channel_not_found` for an
  unknown channel or a private one without the bot, `is_archived`, `no_text`); `missing_scope`
  when the installation was not granted the method's scope.
Controls: `rate_limit()`, `add_channel()`, `set_channel()`, `revoke()`, `posted()`, `authorize()`.
"""

from __future__ import annotations

import base64
import html
import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Request, Response

from infra.local import faults
from infra.local.wsgi_thread import WsgiThread

CODE_TTL = 600
MAX_LIMIT = 1000
SCOPE_NEEDED = {
    "chat.postMessage": "chat:write",
    "conversations.join": "channels:join",
    "conversations.list": "channels:read",
}


@dataclass
class Channel:
    id: str
    name: str
    is_private: bool = False
    is_archived: bool = False
    bot_member: bool = False


@dataclass
class Installation:
    token: str
    client_id: str
    scope: str
    bot_user_id: str
    revoked: bool = False


@dataclass
class _Code:
    client_id: str
    redirect_uri: str
    scope: str
    expires: float
    used: bool = False


@dataclass
class _RateLimit:
    times: int
    retry_after: int
    method: str | None


@dataclass(frozen=True)
class Posted:
    channel: str
    text: str
    blocks: Any
    ts: str
    token: str


class FakeSlack(WsgiThread):
    def __init__(
        self,
        client_id: str = "local-client-id",
        client_secret: str | None = None,  # a fresh random one: the app reads fake.client_secret
        team_id: str = "T0LOCAL01",
        team_name: str = "Tandem Local",
        clock: Any = time.time,
    ) -> None:
        super().__init__()
        self.client_id = client_id
        self.client_secret = client_secret or secrets.token_urlsafe(24)
        self.team_id, self.team_name = team_id, team_name
        self._clock = clock
        self._lock = threading.Lock()
        self._channels: dict[str, Channel] = {}
        self._installs: dict[str, Installation] = {}
        self._codes: dict[str, _Code] = {}
        self._posted: list[Posted] = []
        self._rate_limits: list[_RateLimit] = []
        self._calls: dict[str, int] = {}
        self._ts = 0
        for name in ("general", "random", "partnerships"):
            self.add_channel(name, bot_member=name == "general")

    # ------------------------------------------------------------ controls

    def add_channel(
        self, name: str, *, private: bool = False, bot_member: bool = False, archived: bool = False
    ) -> str:
        with self._lock:
            channel_id = f"C{len(self._channels) + 1:08d}"
            self._channels[channel_id] = Channel(channel_id, name, private, archived, bot_member)
            return channel_id

    def channel_id(self, name: str) -> str:
        with self._lock:
            return next(c.id for c in self._channels.values() if c.name == name)

    def set_channel(
        self,
        name_or_id: str,
        *,
        private: bool | None = None,
        bot_member: bool | None = None,
        archived: bool | None = None,
    ) -> None:
        """Make a channel private, remove the bot from it ('bot-not-member'), archive it..."""
        with self._lock:
            channel = self._channels.get(name_or_id) or next(
                c for c in self._channels.values() if c.name == name_or_id
            )
            if private is not None:
                channel.is_private = private
            if bot_member is not None:
                channel.bot_member = bot_member
            if archived is not None:
                channel.is_archived = archived

    def rate_limit(self, times: int = 1, retry_after: int = 1, method: str | None = None) -> None:
        """The next `times` calls (of `method`, or any) answer 429 with Retry-After."""
        with self._lock:
            self._rate_limits.append(_RateLimit(times, retry_after, method))

    def revoke(self, token: str) -> None:
        """The workspace removed the app: the token answers `token_revoked` from now on."""
        with self._lock:
            self._installs[token].revoked = True

    def posted(self, channel: str | None = None) -> list[Posted]:
        with self._lock:
            return [p for p in self._posted if channel is None or p.channel == channel]

    def calls(self, method: str) -> int:
        """How many times a Web API method was called (rate-limited answers included)."""
        with self._lock:
            return self._calls.get(method, 0)

    def authorize(self, client_id: str, scope: str, redirect_uri: str, state: str, allow: bool = True) -> str:
        """What the authorize page's Allow (or Cancel) button does: the redirect location."""
        if not allow:
            return _with_query(redirect_uri, {"error": "access_denied", "state": state})
        if client_id != self.client_id:
            raise ValueError("invalid_client_id")
        code = f"{int(self._clock())}.{secrets.token_hex(12)}"
        with self._lock:
            self._codes[code] = _Code(client_id, redirect_uri, scope, self._clock() + CODE_TTL)
        return _with_query(redirect_uri, {"code": code, "state": state})

    def install(self, scope: str = "chat:write,channels:read,groups:read,channels:join") -> str:
        """A bot token as if the app had been installed (for tests that start connected)."""
        token = f"xoxb-{secrets.token_hex(4)}-{secrets.token_hex(12)}"
        with self._lock:
            self._installs[token] = Installation(token, self.client_id, scope, "U0BOTLOCAL")
        return token

    # ------------------------------------------------------------ HTTP

    def wsgi_app(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        path = request.path
        if path == "/oauth/v2/authorize":
            response = self._authorize_page(request) if request.method == "GET" else self._decide(request)
        elif path.startswith("/api/") and request.method in ("GET", "POST"):
            response = self._api(request, path[len("/api/") :])
        else:
            response = Response("Not found", status=404)
        return response(environ, start_response)

    def _authorize_page(self, request: Request) -> Response:
        args = request.args
        missing = [k for k in ("client_id", "scope", "redirect_uri") if not args.get(k)]
        if missing or args["client_id"] != self.client_id:
            problem = f"Missing {', '.join(missing)}" if missing else "Unknown client_id"
            return Response(
                f"<!doctype html><title>Slack</title><p>{html.escape(problem)}</p>", 400, mimetype="text/html"
            )
        fields = "".join(
            f'<input type="hidden" name="{k}" value="{html.escape(args.get(k, ""), quote=True)}">'
            for k in ("client_id", "scope", "redirect_uri", "state")
        )
        scopes = "".join(f"<li>{html.escape(s)}</li>" for s in args["scope"].split(",") if s)
        page = (
            "<!doctype html><html lang=en><meta charset=utf-8><title>Slack (local): allow Tandem</title>"
            "<style>body{font:15px system-ui;max-width:520px;margin:3rem auto;padding:0 1rem}"
            "button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:6px}</style>"
            f"<h1>Tandem is requesting permission to access the {html.escape(self.team_name)} workspace</h1>"
            f"<p>It will be able to:</p><ul>{scopes}</ul>"
            f'<form method="post" action="/oauth/v2/authorize">{fields}'
            '<button type="submit" name="decision" value="cancel">Cancel</button>'
            '<button type="submit" name="decision" value="allow">Allow</button></form>'
        )
        return Response(page, mimetype="text/html")

    def _decide(self, request: Request) -> Response:
        form = request.form
        redirect_uri = form.get("redirect_uri", "")
        if urlsplit(redirect_uri).scheme not in ("http", "https"):
            return Response("Bad redirect_uri", status=400)
        try:
            location = self.authorize(
                form.get("client_id", ""),
                form.get("scope", ""),
                redirect_uri,
                form.get("state", ""),
                allow=form.get("decision") == "allow",
            )
        except ValueError as exc:
            return Response(str(exc), status=400)
        return Response(status=302, headers={"Location": location})

    def _api(self, request: Request, method: str) -> Response:
        params = MultiDict(request.args)
        if request.mimetype == "application/json":
            body = request.get_json(silent=True)
            if isinstance(body, dict):
                params.update(body)
        else:
            params.update(request.form)
        with self._lock:
            self._calls[method] = self._calls.get(method, 0) + 1
            fault = faults.hit("slack", method)  # infra/local/faults.py: 429 for a share or a window
            if fault is not None:
                retry_after = fault.retry_after if fault.retry_after is not None else 1
                return _slack({"ok": False, "error": "ratelimited"}, 429, {"Retry-After": str(retry_after)})
            for limit in self._rate_limits:
                if limit.method in (None, method):
                    limit.times -= 1
                    if limit.times <= 0:
                        self._rate_limits.remove(limit)
                    return _slack(
                        {"ok": False, "error": "ratelimited"}, 429, {"Retry-After": str(limit.retry_after)}
                    )
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        if handler is None:
            return _slack({"ok": False, "error": "unknown_method"}, 404)
        if method == "oauth.v2.access":
            return _slack(handler(request, params))
        token = _bearer(request) or params.get("token")
        with self._lock:
            install = self._installs.get(token or "")
        if not token:
            return _slack({"ok": False, "error": "not_authed"})
        if install is None:
            return _slack({"ok": False, "error": "invalid_auth"})
        if install.revoked:
            return _slack({"ok": False, "error": "token_revoked"})
        needed = SCOPE_NEEDED.get(method)
        if needed and needed not in install.scope.split(","):
            return _slack(
                {"ok": False, "error": "missing_scope", "needed": needed, "provided": install.scope}
            )
        return _slack(handler(install, params))

    # ------------------------------------------------------------ Web API methods

    def _m_oauth_v2_access(self, request: Request, params: MultiDict) -> dict[str, Any]:
        client_id, client_secret = params.get("client_id"), params.get("client_secret")
        if request.authorization and request.authorization.type == "basic":
            client_id, client_secret = request.authorization.username, request.authorization.password
        if client_id != self.client_id:
            return {"ok": False, "error": "invalid_client_id"}
        if client_secret != self.client_secret:
            return {"ok": False, "error": "bad_client_secret"}
        with self._lock:
            code = self._codes.get(params.get("code") or "")
            if code is None or code.used or code.expires <= self._clock() or code.client_id != client_id:
                return {"ok": False, "error": "invalid_code"}
            if (params.get("redirect_uri") or code.redirect_uri) != code.redirect_uri:
                return {"ok": False, "error": "bad_redirect_uri"}
            code.used = True
        token = self.install(code.scope)
        answer: dict[str, Any] = {
            "ok": True,
            "app_id": "A0TANDEM01",
            "authed_user": {"id": "U0MEMBER01"},
            "scope": code.scope,
            "token_type": "bot",
            "access_token": token,
            "bot_user_id": "U0BOTLOCAL",
            "team": {"id": self.team_id, "name": self.team_name},
            "enterprise": None,
            "is_enterprise_install": False,
        }
        if "incoming-webhook" in code.scope.split(","):
            general = self.channel_id("general")
            answer["incoming_webhook"] = {
                "channel": "#general",
                "channel_id": general,
                "configuration_url": f"{self.url}/services/B0LOCAL",
                "url": f"{self.url}/services/T0LOCAL01/B0LOCAL/{secrets.token_hex(8)}",
            }
        return answer

    def _m_auth_test(self, install: Installation, params: MultiDict) -> dict[str, Any]:
        return {
            "ok": True,
            "url": f"{self.url}/",
            "team": self.team_name,
            "user": "tandem",
            "team_id": self.team_id,
            "user_id": install.bot_user_id,
            "bot_id": "B0BOTLOCAL",
            "is_enterprise_install": False,
        }

    def _m_auth_revoke(self, install: Installation, params: MultiDict) -> dict[str, Any]:
        with self._lock:
            install.revoked = True
        return {"ok": True, "revoked": True}

    def _m_conversations_list(self, install: Installation, params: MultiDict) -> dict[str, Any]:
        types = set((params.get("types") or "public_channel").split(","))
        if not types <= {"public_channel", "private_channel", "mpim", "im"}:
            return {"ok": False, "error": "invalid_types"}
        try:
            limit = int(params.get("limit") or 100)
            offset = (
                int(base64.b64decode(params["cursor"]).decode().split(":", 1)[1])
                if params.get("cursor")
                else 0
            )
        except (ValueError, IndexError, UnicodeDecodeError):
            return {"ok": False, "error": "invalid_cursor"}
        if not 1 <= limit <= MAX_LIMIT:
            return {"ok": False, "error": "invalid_limit"}
        exclude_archived = str(params.get("exclude_archived", "")).lower() in ("true", "1")
        with self._lock:
            visible = [
                c
                for c in self._channels.values()
                if ("private_channel" in types and c.is_private and c.bot_member)
                or ("public_channel" in types and not c.is_private)
            ]
            visible = [c for c in visible if not (exclude_archived and c.is_archived)]
            page = visible[offset : offset + limit]
            more = offset + limit < len(visible)
            channels = [_channel_json(c) for c in page]
        next_cursor = base64.b64encode(f"next:{offset + limit}".encode()).decode() if more else ""
        return {"ok": True, "channels": channels, "response_metadata": {"next_cursor": next_cursor}}

    def _m_conversations_join(self, install: Installation, params: MultiDict) -> dict[str, Any]:
        with self._lock:
            channel = self._channels.get(params.get("channel") or "")
            if channel is None or (channel.is_private and not channel.bot_member):
                return {"ok": False, "error": "channel_not_found"}
            if channel.is_private:
                return {"ok": False, "error": "method_not_supported_for_channel_type"}
            if channel.is_archived:
                return {"ok": False, "error": "is_archived"}
            already = channel.bot_member
            channel.bot_member = True
            answer: dict[str, Any] = {"ok": True, "channel": _channel_json(channel)}
        if already:
            answer["warning"] = "already_in_channel"
            answer["response_metadata"] = {"warnings": ["already_in_channel"]}
        return answer

    def _m_chat_postMessage(self, install: Installation, params: MultiDict) -> dict[str, Any]:  # noqa: N802
        text, blocks = params.get("text"), params.get("blocks")
        with self._lock:
            channel = self._channels.get(params.get("channel") or "")
            if channel is None or (channel.is_private and not channel.bot_member):
                return {"ok": False, "error": "channel_not_found"}
            if channel.is_archived:
                return {"ok": False, "error": "is_archived"}
            if not channel.bot_member:
                return {"ok": False, "error": "not_in_channel"}
            if not text and not blocks:
                return {"ok": False, "error": "no_text"}
            self._ts += 1
            ts = f"{int(self._clock())}.{self._ts:06d}"
            self._posted.append(Posted(channel.id, text or "", blocks, ts, install.token))
        return {
            "ok": True,
            "channel": channel.id,
            "ts": ts,
            "message": {"type": "message", "text": text or "", "bot_id": "B0BOTLOCAL", "ts": ts},
        }


def _channel_json(channel: Channel) -> dict[str, Any]:
    return {
        "id": channel.id,
        "name": channel.name,
        "is_channel": not channel.is_private,
        "is_group": channel.is_private,
        "is_private": channel.is_private,
        "is_archived": channel.is_archived,
        "is_member": channel.bot_member,
    }


def _bearer(request: Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _with_query(url: str, params: dict[str, str]) -> str:
    return f"{url}{'&' if '?' in url else '?'}{urlencode(params)}"


def _slack(body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json", headers=headers)
