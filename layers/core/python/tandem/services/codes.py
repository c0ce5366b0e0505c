"""Single-use, expiring link codes, stored by hash (confirm email, instant login).

`consume` flips `used` with a conditional update, so two clicks racing on one link cannot
both succeed. Codes are 256-bit random values, so a plain SHA-256 is enough to store them.
Reset and create-password links live on the user instead (tandem.services.password_links).
"""

from __future__ import annotations

import hashlib
import secrets
import time

from tandem.errors import ValidationError
from tandem.store import keys
from tandem.store.errors import ConditionFailed
from tandem.store.models import OneTimeCode

LIFETIMES = {
    "confirm-email": 7 * 24 * 3600,
    "instant-login": 72 * 3600,  # the sign-in link in emails that bring a member back
}
EXPIRED_OR_USED = "This link has expired or was already used. Please ask for a new one."


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def issue(
    purpose: str,
    user_id: str,
    *,
    email: str | None = None,
    token_version: int | None = None,
    destination: str | None = None,
) -> str:
    """A new code for the user; `email`, `token_version` and `destination` are kept with it
    (instant login: what the link is bound to, and the page it opens)."""
    lifetime = LIFETIMES[purpose]
    code = secrets.token_urlsafe(32)
    now = int(time.time())
    OneTimeCode(
        keys.code_pk(_hash(code)),
        keys.META,
        purpose=purpose,
        user_id=user_id,
        expires_at=now + lifetime,
        ttl=now + lifetime + 86400,
        email=email,
        token_version=token_version,
        destination=destination,
    ).save()
    return code


def use(purpose: str, code: str) -> OneTimeCode:
    """Use the code once; returns it as it was stored (its user, and what it is bound to).
    Wrong, expired or used codes all fail alike."""
    if not code or len(code) > 200:
        raise ValidationError(EXPIRED_OR_USED)
    item = OneTimeCode(keys.code_pk(_hash(code)), keys.META)
    try:
        item.update(
            actions=[OneTimeCode.used.set(True)],
            condition=(OneTimeCode.purpose == purpose)
            & (OneTimeCode.used == False)  # noqa: E712 (a DynamoDB condition, not a Python test)
            & (OneTimeCode.expires_at > int(time.time())),
        )
    except ConditionFailed:
        raise ValidationError(EXPIRED_OR_USED) from None
    return item


def consume(purpose: str, code: str) -> str:
    """Use the code once; returns its user id. Wrong, expired or used codes all fail alike."""
    return use(purpose, code).user_id


def find(purpose: str, code: str) -> OneTimeCode | None:
    """The stored code (used, expired or not), or None: to say whom a refused link was for.
    Only someone holding the code can find it (it is looked up by its hash)."""
    if not code or len(code) > 200:
        return None
    item = OneTimeCode.find(_hash(code), consistent=True)
    return item if item is not None and item.purpose == purpose else None
