"""Single-use, expiring link codes, stored by hash.

`consume` flips `used` with a conditional update, so two clicks racing on one link cannot
both succeed. Codes are 256-bit random values, so a plain SHA-256 is enough to store them.

Password links (reset / create password) are also named on the user (`User.password_link`):
issuing one replaces the name in the same transaction, and using one removes it in the same
transaction that sets the password, so only the newest link a user was sent can ever work.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from pynamodb.exceptions import TransactWriteError, UpdateError

from tandem.errors import ValidationError
from tandem.store import keys
from tandem.store.models import OneTimeCode, User, transaction

LIFETIMES = {
    "confirm-email": 7 * 24 * 3600,
    "reset-password": 3600,
    "create-password": 7 * 24 * 3600,
    "instant-login": 15 * 60,
}
PASSWORD_LINKS = frozenset({"reset-password", "create-password"})
EXPIRED_OR_USED = "This link has expired or was already used. Please ask for a new one."
MAX_CODE_LENGTH = 200


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def issue(purpose: str, user_id: str) -> str:
    lifetime = LIFETIMES[purpose]
    code = secrets.token_urlsafe(32)
    now = int(time.time())
    item = OneTimeCode(
        keys.code_pk(_hash(code)),
        keys.META,
        purpose=purpose,
        user_id=user_id,
        expires_at=now + lifetime,
        ttl=now + lifetime + 86400,
    )
    if purpose not in PASSWORD_LINKS:
        item.save()
        return code
    with transaction() as tx:
        tx.save(item)
        tx.update(
            User(keys.user_pk(user_id), keys.META),
            actions=[User.password_link.set(_hash(code))],
            condition=User.pk.exists(),
        )
    return code


def consume(purpose: str, code: str) -> str:
    """Use the code once; returns its user id. Wrong, expired or used codes all fail alike."""
    if purpose in PASSWORD_LINKS:
        raise ValueError("password links are used with use_password_link")
    if not _well_formed(code):
        raise ValidationError(EXPIRED_OR_USED)
    item = OneTimeCode(keys.code_pk(_hash(code)), keys.META)
    try:
        item.update(actions=[OneTimeCode.used.set(True)], condition=_usable(purpose))
    except UpdateError:
        raise ValidationError(EXPIRED_OR_USED) from None
    return item.user_id


def _well_formed(code: str) -> bool:
    return bool(code) and len(code) <= MAX_CODE_LENGTH and code.isascii() and code.isprintable()


def _usable(purpose: str) -> Any:
    return (
        (OneTimeCode.purpose == purpose)
        & (OneTimeCode.used == False)  # noqa: E712 (a DynamoDB condition, not a Python test)
        & (OneTimeCode.expires_at > int(time.time()))
    )


@dataclass(frozen=True)
class PasswordLink:
    """A reset / create-password link that works right now, and its user."""

    item: OneTimeCode
    user: User
    code_hash: str


def open_password_link(purpose: str, code: str) -> PasswordLink | None:
    """The link if it would work now (known, unused, unexpired, and the newest one its user was
    sent), else None. Changes nothing: mail scanners open links."""
    if purpose not in PASSWORD_LINKS or not _well_formed(code):
        return None
    code_hash = _hash(code)
    try:
        item = OneTimeCode.get(keys.code_pk(code_hash), keys.META, consistent_read=True)
        if item.purpose != purpose or item.used or item.expires_at <= time.time():
            return None
        user = User.get(keys.user_pk(item.user_id), keys.META, consistent_read=True)
    except (OneTimeCode.DoesNotExist, User.DoesNotExist):
        return None
    return PasswordLink(item, user, code_hash) if user.password_link == code_hash else None


def use_password_link(link: PasswordLink, user_actions: list[Any]) -> None:
    """Use the link once and apply `user_actions` to its user in the same transaction, which
    also retires the link. ValidationError when it was used or replaced meanwhile; then
    nothing changes."""
    try:
        with transaction() as tx:
            tx.update(link.item, actions=[OneTimeCode.used.set(True)], condition=_usable(link.item.purpose))
            tx.update(
                link.user,
                actions=[*user_actions, User.password_link.remove()],
                condition=User.password_link == link.code_hash,
            )
    except TransactWriteError:
        raise ValidationError(EXPIRED_OR_USED) from None
