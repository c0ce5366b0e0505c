"""Access tokens: short-lived JWTs signed with a key from Secrets Manager.

Only HS256 is accepted when verifying (the algorithm allow-list), and every token carries its
type, so a refresh token or a link code can never be used as an access token. It also carries
the user's token version (`ver`): after a password reset the user's version moves on and
`accounts.user_for_token` refuses every token issued before, at no extra DynamoDB call
(every private route reads the user item anyway). Tokens without `ver` are version 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tandem.config import settings
from tandem.domain import jws
from tandem.errors import Unauthorized, ValidationError
from tandem.integrations.aws import get_secret

ALGORITHM = "HS256"
ACCESS_TTL_SECONDS = 15 * 60
ISSUER = "tandem"


@dataclass(frozen=True)
class AccessClaims:
    user_id: str
    account_id: str
    access: str
    version: int = 0

    @property
    def is_admin(self) -> bool:
        return self.access == "admin"


def _key() -> str:
    return get_secret(settings().jwt_secret_name)


def issue_access_token(
    user_id: str, account_id: str, access: str, ttl: int = ACCESS_TTL_SECONDS, *, version: int = 0
) -> str:
    now = int(time.time())
    payload = {
        "sub": user_id,
        "acc": account_id,
        "access": access,
        "ver": int(version),
        "typ": "access",
        "iss": ISSUER,
        "iat": now,
        "exp": now + ttl,
    }
    return jws.encode(payload, _key())  # HS256 (ALGORITHM)


def verify_access_token(token: str) -> AccessClaims:
    try:
        payload = jws.decode(token, _key(), issuer=ISSUER, required=("exp", "iat", "sub", "iss"))
    except jws.ExpiredToken:
        raise Unauthorized("Your session has expired") from None
    except jws.InvalidToken:
        raise Unauthorized("Invalid access token") from None
    version = payload.get("ver", 0)
    if payload.get("typ") != "access" or type(version) is not int:
        raise Unauthorized("Invalid access token")
    return AccessClaims(payload["sub"], payload["acc"], payload.get("access", "member"), version)


# ------------------------------------------------------------ what a search page showed (issue 37)

VIEW_TTL_SECONDS = 60 * 60  # a page's view can be kept up to an hour after the search gave it
VIEW_ISSUER = "tandem-view"  # never an access token's issuer: neither is ever taken for the other
MAX_VIEW_CARDS = 50
VIEW_REFUSED = "view must be a view a search gave in the last hour"  # every refusal of a view


@dataclass(frozen=True)
class ShownView:
    """A page of cards the API gave a brand: its cards in the order shown (brand id, fit
    percent), the place of the first, the ranking's version and when (epoch ms)."""

    brand_id: int
    surface: str
    version: int
    offset: int
    cards: tuple[tuple[int, int], ...]
    at_ms: int


def issue_view_token(view: ShownView) -> str:
    """The signed record of what a page showed, for the screen to hand back once it is on screen
    (POST brands/search/views): the GET that showed it writes nothing."""
    at = view.at_ms // 1000
    payload = {
        "sub": str(int(view.brand_id)),
        "typ": "view",
        "srf": view.surface,
        "v": int(view.version),
        "o": int(view.offset),
        "c": [[int(i), int(p)] for i, p in view.cards[:MAX_VIEW_CARDS]],
        "ms": int(view.at_ms),
        "iss": VIEW_ISSUER,
        "iat": at,
        "exp": at + VIEW_TTL_SECONDS,
    }
    return jws.encode(payload, _key())


def read_view_token(token: object) -> ShownView:
    """The view a token this API issued says was shown; a ValidationError (400) for anything
    else: not one of ours, altered, more than an hour old, or not a view."""
    refused = VIEW_REFUSED
    if not isinstance(token, str) or len(token) > 4096:
        raise ValidationError(refused)
    try:
        payload = jws.decode(token, _key(), issuer=VIEW_ISSUER, required=("exp", "iat", "sub", "ms", "c"))
        cards = tuple((int(i), int(p)) for i, p in payload["c"])
        brand_id, surface, version, offset = (
            int(payload["sub"]),
            str(payload["srf"]),
            int(payload["v"]),
            int(payload["o"]),
        )
        view = ShownView(brand_id, surface, version, offset, cards, int(payload["ms"]))
    except (jws.InvalidToken, KeyError, TypeError, ValueError):
        raise ValidationError(refused) from None
    if payload.get("typ") != "view" or not cards or len(cards) > MAX_VIEW_CARDS:
        raise ValidationError(refused)
    return view
