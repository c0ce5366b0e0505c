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
from tandem.errors import Unauthorized
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
