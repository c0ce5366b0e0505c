"""Reset- and create-password links: one per user, kept on the user item.

A link's code is `<user id>-<secret>` (no dot: a last path segment with a dot is served as a
file). The user item keeps SHA-256(secret), the link's purpose and expiry: issuing a link
overwrites them (every earlier link stops working), using it removes them in the same
conditional UpdateItem that sets the password. Issuing, checking and using are one DynamoDB
call each; issuing is refused within a minute of the previous link, so nobody can fill a
member's inbox.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from typing import Any

from tandem.errors import ValidationError
from tandem.store import keys
from tandem.store.errors import ConditionFailed
from tandem.store.models import User, update_only, update_returning_old

LIFETIMES = {"reset-password": 3600, "create-password": 7 * 24 * 3600}
RESEND_AFTER = 60  # seconds between two link emails to one address
EXPIRED_OR_USED = "This link has expired or was already used. Please ask for a new one."
CODE = re.compile(r"^([0-9a-f]{32})-([A-Za-z0-9_-]{20,100})$")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _parse(code: str) -> tuple[str, str] | None:
    found = CODE.match(code or "")
    return (found.group(1), found.group(2)) if found else None


def issue(purpose: str, user_id: str) -> str | None:
    """A new link for the user, replacing any earlier one (one UpdateItem that reads nothing
    back); None when a link went out less than a minute ago."""
    found = _issue(purpose, user_id, read_back=False)
    return found[0] if found else None


def issue_create_link(user_id: str) -> tuple[str, bool] | None:
    """A create-password link, and whether the user had a password already: the same one
    UpdateItem as `issue` (it answers with the item's attribute names), so an address whose
    member has a password costs what any other address costs. For such a member the link is
    stored but never works (`use` refuses a create-password link to a user with a password):
    the caller mails them that they have a password instead. None within a minute of the
    previous link."""
    return _issue("create-password", user_id, read_back=True)


def _issue(purpose: str, user_id: str, *, read_back: bool) -> tuple[str, bool] | None:
    lifetime = LIFETIMES[purpose]
    secret = secrets.token_urlsafe(32)
    now = int(time.time())
    condition = User.pk.exists() & (
        User.password_link_sent.does_not_exist() | (User.password_link_sent <= now - RESEND_AFTER)
    )
    actions = [
        User.password_link.set(_hash(secret)),
        User.password_link_purpose.set(purpose),
        User.password_link_expires.set(now + lifetime),
        User.password_link_sent.set(now),
    ]
    key = (keys.user_pk(user_id), keys.META)
    try:
        if read_back:
            had_password = User.password_hash.attr_name in update_returning_old(User, key, actions, condition)
        else:
            update_only(User, key, actions, condition)
            had_password = False
    except ConditionFailed:
        return None
    return f"{user_id}-{secret}", had_password


def open_link(purpose: str, code: str) -> User | None:
    """The link's user when the link would work now (the newest one sent, not used, not
    expired), else None. Changes nothing: mail scanners open links."""
    parsed = _parse(code)
    if purpose not in LIFETIMES or parsed is None:
        return None
    user_id, secret = parsed
    try:
        user = User.get(keys.user_pk(user_id), keys.META, consistent_read=True)
    except User.DoesNotExist:
        return None
    if (
        not user.password_link
        or not hmac.compare_digest(user.password_link, _hash(secret))
        or user.password_link_purpose != purpose
        or int(user.password_link_expires or 0) <= time.time()
    ):
        return None
    return user


def use(purpose: str, code: str, user: User, actions: list[Any]) -> None:
    """Apply `actions` to the link's user and retire the link, in one conditional write:
    ValidationError (and nothing changes) when the link was used or replaced meanwhile."""
    parsed = _parse(code)
    if parsed is None or parsed[0] != user.user_id:
        raise ValidationError(EXPIRED_OR_USED)
    try:
        user.update(
            actions=[
                *actions,
                User.password_link.remove(),
                User.password_link_purpose.remove(),
                User.password_link_expires.remove(),
            ],
            condition=(User.password_link == _hash(parsed[1]))
            & (User.password_link_purpose == purpose)
            & (User.password_link_expires > int(time.time()))
            # a create-password link made for a member who has a password was never mailed
            & (User.password_hash.does_not_exist() if purpose == "create-password" else User.pk.exists()),
        )
    except ConditionFailed:
        raise ValidationError(EXPIRED_OR_USED) from None
