"""Sign-ins: rotating refresh tokens with reuse detection.

A refresh token is `<user id>.<token id>.<secret>`; only SHA-256(secret) is stored. Each use
marks the token used and issues the next one of the same family in one transaction. Presenting
a used token again means it was copied: the whole family (that sign-in) is revoked.

Each token keeps the user's token version from sign-in; once a password reset has moved the
user's version on, no token of an earlier sign-in rotates (and `revoke_all` marks them revoked).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid

from tandem.errors import Unauthorized
from tandem.services.accounts import get_user
from tandem.store import keys
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.models import RefreshToken, User

REFRESH_TTL_SECONDS = 30 * 24 * 3600
INVALID = "Your session has ended. Please sign in again."


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_token(user_id: str, family_id: str, version: int) -> tuple[RefreshToken, str]:
    token_id, secret = uuid.uuid4().hex, secrets.token_urlsafe(32)
    now = int(time.time())
    item = RefreshToken(
        keys.user_pk(user_id),
        keys.refresh_sk(token_id),
        token_id=token_id,
        user_id=user_id,
        family_id=family_id,
        token_hash=_hash(secret),
        expires_at=now + REFRESH_TTL_SECONDS,
        ttl=now + REFRESH_TTL_SECONDS + 86400,
        token_version=version,
    )
    return item, f"{user_id}.{token_id}.{secret}"


def start(user: User) -> str:
    item, token = _new_token(user.user_id, uuid.uuid4().hex, int(user.token_version or 0))
    item.save()
    return token


def _parse(token: str) -> tuple[str, str, str]:
    parts = (token or "").split(".")
    if len(parts) != 3 or not all(parts) or len(token) > 300:
        raise Unauthorized(INVALID)
    return parts[0], parts[1], parts[2]


def _load(token: str) -> tuple[RefreshToken, str]:
    user_id, token_id, secret = _parse(token)
    try:
        item = RefreshToken.get(keys.user_pk(user_id), keys.refresh_sk(token_id), consistent_read=True)
    except RefreshToken.DoesNotExist:
        raise Unauthorized(INVALID) from None
    if not hmac.compare_digest(item.token_hash, _hash(secret)):
        raise Unauthorized(INVALID)
    return item, secret


def revoke_family(user_id: str, family_id: str) -> None:
    for item in RefreshToken.query(
        keys.user_pk(user_id),
        RefreshToken.sk.startswith(keys.REFRESH_PREFIX),
        filter_condition=RefreshToken.family_id == family_id,
    ):
        item.update(actions=[RefreshToken.revoked.set(True)])


def revoke_all(user_id: str) -> int:
    """End every sign-in of the user (a password reset): each family's live token is revoked
    (used or revoked ones cannot rotate anyway). Returns how many were live."""
    live = RefreshToken.query(
        keys.user_pk(user_id),
        RefreshToken.sk.startswith(keys.refresh_sk("")),
        filter_condition=(RefreshToken.used == False) & (RefreshToken.revoked == False),  # noqa: E712
    )
    count = 0
    for item in live:
        item.update(actions=[RefreshToken.revoked.set(True)])
        count += 1
    return count


def rotate(token: str, expected_user_id: str | None = None) -> tuple[User, str]:
    """Use a refresh token; returns (its user, next refresh token)."""
    item, _ = _load(token)
    if expected_user_id and expected_user_id != item.user_id:
        raise Unauthorized(INVALID)
    if item.revoked or item.expires_at < time.time():
        raise Unauthorized(INVALID)
    if item.used:
        revoke_family(item.user_id, item.family_id)
        raise Unauthorized(INVALID)
    user = get_user(item.user_id)
    if int(item.token_version or 0) != int(user.token_version or 0):
        raise Unauthorized(INVALID)  # signed in before a password reset
    nxt, nxt_token = _new_token(item.user_id, item.family_id, int(item.token_version or 0))
    try:
        with transaction() as tx:
            tx.update(
                item,
                actions=[RefreshToken.used.set(True)],
                condition=(RefreshToken.used == False) & (RefreshToken.revoked == False),  # noqa: E712
            )
            tx.save(nxt)
    except ConditionFailed:
        # Lost a race with another use of the same token: that is reuse too.
        revoke_family(item.user_id, item.family_id)
        raise Unauthorized(INVALID) from None
    return user, nxt_token


def end(token: str) -> None:
    """Log out: revoke the sign-in this token belongs to (unknown tokens are ignored)."""
    try:
        item, _ = _load(token)
    except Unauthorized:
        return
    revoke_family(item.user_id, item.family_id)
