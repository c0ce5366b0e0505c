"""Instant sign-in from email: the emails that bring a member back (a request received, a
request accepted, new matches) carry a one-click sign-in link to the page they are about.

A link is `/login/{code}/{user id}/{status}`: `code` is a single-use code (tandem.services.codes,
stored by its SHA-256) valid 72 hours, bound to the user, to the address the email went to and
to the user's token version when it was sent (a password reset or "sign out everywhere" raises
it: every link sent before stops working). The code keeps the page it opens; `status` names the
email it came in (request-received, request-accepted, new-matches) and is checked against it.
A member turns these links off in Notifications (then the emails link to the page as before,
and links already sent stop working). A sign-in by link starts a session like any other.
"""

from __future__ import annotations

import re
from typing import Any

from tandem.errors import ValidationError
from tandem.observability import logger
from tandem.services import codes, mailer
from tandem.store.models import User

PURPOSE = "instant-login"
STATUSES = ("request-received", "request-accepted", "new-matches")
STATUS = re.compile(r"^[a-z][a-z-]{0,39}$")
LINK_REFUSED = "This sign-in link has expired or was already used. Sign in with your password instead."
TURNED_OFF = "Sign-in links are turned off for your account. Sign in with your password instead."


class LinkRefused(ValidationError):
    """A sign-in link that does not work (any more): `extra` names the address it was sent to,
    so the sign-in form can be filled in (only the holder of the link learns it)."""

    def __init__(self, message: str, email: str | None) -> None:
        super().__init__(message, code="sign_in_link_refused", extra={"email": email} if email else None)


def enabled(user: User) -> bool:
    return user.sign_in_links is not False and user.access != "admin"


def link(user: User, destination: str, status: str) -> str:
    """An absolute sign-in link for `user`, to the email address they have now, opening
    `destination` (a path of ours)."""
    if status not in STATUSES:
        raise ValueError(f"Unknown sign-in link status {status!r}")
    if not destination.startswith("/") or destination.startswith("//") or "#" in destination:
        raise ValueError("A sign-in link opens a path of ours")
    code = codes.issue(
        PURPOSE,
        user.user_id,
        email=user.email,
        token_version=int(user.token_version or 0),
        destination=f"{destination}#{status}",
    )
    return mailer.link(f"/login/{code}/{user.user_id}/{status}")


def with_link(user: User, context: dict[str, Any]) -> dict[str, Any]:
    """The email context of a notification for this member: `context["sign_in"]`, when the
    message asks for one ({"key", "path", "status"}), becomes a sign-in link in
    `context[key]` (and `sign_in_link` True) when the member has them on."""
    wanted = context.get("sign_in")
    if not isinstance(wanted, dict) or not enabled(user):
        return context
    try:
        url = link(user, str(wanted["path"]), str(wanted["status"]))
    except (KeyError, ValueError):
        logger.warning("A notification asked for a sign-in link it cannot have")
        return context
    return {**context, str(wanted["key"]): url, "sign_in_link": True}


def sign_in(code: str, user_id: str, status: str | None) -> tuple[User, str]:
    """Use a sign-in link: its user and the page it opens. Refused (LinkRefused) when the code
    is wrong, used or expired, names another user, came in another email, went to an address
    the member no longer has, predates a password reset, or the member turned links off."""
    if status is not None and not STATUS.match(status):
        raise LinkRefused(LINK_REFUSED, None)
    try:
        item = codes.use(PURPOSE, code)
    except ValidationError:
        raise LinkRefused(LINK_REFUSED, _sent_to(code, user_id)) from None
    if item.user_id != user_id:
        raise LinkRefused(LINK_REFUSED, None)
    user = User.find(user_id)
    if user is None:
        raise LinkRefused(LINK_REFUSED, None)
    destination, _, for_status = (item.destination or "/").partition("#")
    if (
        (item.email is not None and item.email != user.email)
        or (item.token_version is not None and int(item.token_version) != int(user.token_version or 0))
        or (status is not None and for_status and status != for_status)
    ):
        raise LinkRefused(LINK_REFUSED, item.email if item.email == user.email else None)
    if not enabled(user):
        raise LinkRefused(TURNED_OFF, user.email)
    logger.info("Signed in by email link", extra={"user": user.user_id, "status": for_status or None})
    return user, destination


def _sent_to(code: str, user_id: str) -> str | None:
    item = codes.find(PURPOSE, code)
    return item.email if item is not None and item.user_id == user_id else None


def settings_of(user: User) -> dict[str, bool]:
    return {"enabled": user.sign_in_links is not False}


def set_enabled(user: User, body: dict[str, Any]) -> dict[str, bool]:
    """PUT notifications/sign-in-links {enabled}: turning them off also ends links already sent."""
    value = body.get("enabled")
    if not isinstance(value, bool):
        raise ValidationError("enabled must be true or false.")
    user.update(actions=[User.sign_in_links.set(value)])
    return {"enabled": value}
