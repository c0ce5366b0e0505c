"""One-click unsubscribe (RFC 8058), pure: a signed token naming a user and one notification
source, and the headers that carry it.

An email of a source the member may switch off carries
    List-Unsubscribe: <https://host/api/notifications/unsubscribe/TOKEN>
    List-Unsubscribe-Post: List-Unsubscribe=One-Click
Mail providers POST `List-Unsubscribe=One-Click` to that URL; the footer link opens a page whose
button POSTs the same (opening a link must change nothing: mail scanners open links). Either turns
off only that source's email for that user. The token is `{user}-{source}-{expires}-{signature}`
(no dots: a last path segment with a dot is served as a file, not the app).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from tandem.domain import notifications

UNSUBSCRIBE_DAYS = 365  # people unsubscribe from old emails too; the action only switches one email off
API_PATH = "/api/notifications/unsubscribe/"
PAGE_PATH = "/unsubscribe/"
ONE_CLICK_BODY = "List-Unsubscribe=One-Click"

LINK_INVALID = "This unsubscribe link is not valid. Please sign in to change your notification settings."
LINK_EXPIRED = "This unsubscribe link has expired. Please sign in to change your notification settings."

_USER = re.compile(r"^[A-Za-z0-9_]{1,64}$")


@dataclass(frozen=True)
class Unsubscribe:
    user_id: str
    source: str
    expires: int  # epoch seconds


class UnsubscribeError(ValueError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def unsubscribe_key(secret: str) -> bytes:
    """A key of its own for unsubscribe links, derived from the app's signing secret."""
    return hmac.new(secret.encode(), b"tandem unsubscribe links v1", hashlib.sha256).digest()


def can_unsubscribe(source: str) -> bool:
    """Sources whose email is mandatory (billing and account) carry no unsubscribe link."""
    return notifications.EMAIL not in notifications.get_source(source).mandatory


def _signature(key: bytes, item: Unsubscribe) -> str:
    message = f"unsubscribe|{item.user_id}|{item.source}|{item.expires}"
    digest = hmac.new(key, message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def sign_unsubscribe(key: bytes, user_id: str, source: str, now: int, days: int = UNSUBSCRIBE_DAYS) -> str:
    if not _USER.match(user_id):
        raise ValueError("A user id for an unsubscribe link is letters, digits and '_' only.")
    if not can_unsubscribe(source):
        raise ValueError(f"{notifications.get_source(source).label} emails can't be unsubscribed from.")
    item = Unsubscribe(user_id, source, int(now) + days * 86400)
    return f"{item.user_id}-{item.source}-{item.expires}-{_signature(key, item)}"


def verify_unsubscribe(key: bytes, token: str, now: int) -> Unsubscribe:
    """The user and source a token names if it is genuine and not expired; UnsubscribeError
    (400 forged or altered, 410 expired)."""
    if not isinstance(token, str) or len(token) > 300:
        raise UnsubscribeError(LINK_INVALID, 400)
    parts = token.split("-", 3)  # the base64url signature may itself contain '-'
    if len(parts) != 4:
        raise UnsubscribeError(LINK_INVALID, 400)
    user_id, source, expires, signature = parts
    if (
        not _USER.match(user_id)
        or source not in notifications.SOURCE_BY_KEY
        or not (expires.isascii() and expires.isdigit() and len(expires) <= 12)
    ):
        raise UnsubscribeError(LINK_INVALID, 400)
    item = Unsubscribe(user_id, source, int(expires))
    if not hmac.compare_digest(_signature(key, item), signature):
        raise UnsubscribeError(LINK_INVALID, 400)
    if now >= item.expires:
        raise UnsubscribeError(LINK_EXPIRED, 410)
    return item


def api_url(site_url: str, token: str) -> str:
    """The one-click POST target named in List-Unsubscribe (must be https in production)."""
    return f"{site_url.rstrip('/')}{API_PATH}{token}"


def page_url(site_url: str, token: str) -> str:
    """The footer link: a page that shows what will be switched off and POSTs on the click."""
    return f"{site_url.rstrip('/')}{PAGE_PATH}{token}"


def list_unsubscribe_headers(one_click_url: str, mailto: str | None = None) -> dict[str, str]:
    """RFC 2369 / RFC 8058 headers. The URL must be https for the one-click promise (plain http
    is accepted only for the local stack on loopback)."""
    if not one_click_url.startswith(("https://", "http://127.0.0.1:", "http://localhost:")):
        raise ValueError("The one-click unsubscribe URL must use https.")
    if any(ch in one_click_url for ch in "<>\r\n ,"):
        raise ValueError("The unsubscribe URL contains characters a header can't carry.")
    targets = [f"<{one_click_url}>"]
    if mailto:
        if any(ch in mailto for ch in "<>\r\n ,"):
            raise ValueError("The unsubscribe mailto contains characters a header can't carry.")
        targets.append(f"<mailto:{mailto}>")
    return {"List-Unsubscribe": ", ".join(targets), "List-Unsubscribe-Post": ONE_CLICK_BODY}
