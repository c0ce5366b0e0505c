"""HS256 JSON Web Tokens (RFC 7519 with an RFC 7515 HMAC-SHA256 signature), nothing else.

The access tokens are HS256 only (docs/decisions.md). PyJWT imports `cryptography` (its RSA
and EC algorithms) when the package is installed, and it is (web push needs it): about a tenth
of the API's cold start for an algorithm the API never accepts. These few checks are the ones
PyJWT applies with `algorithms=["HS256"]`, a required issuer and required claims; the unit
tests check both ways against PyJWT itself.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Iterable
from typing import Any

ALGORITHM = "HS256"
HEADER = {"alg": ALGORITHM, "typ": "JWT"}
_B64URL = re.compile(r"[A-Za-z0-9_-]*")  # unpadded base64url: one spelling per token


class InvalidToken(ValueError):
    """Not a token this service signed, or one it must not accept."""


class ExpiredToken(InvalidToken):
    """Genuine, but past its `exp`."""


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    if not _B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise InvalidToken("not base64url")  # the decoder would skip stray characters
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InvalidToken("not base64url") from None


def _json(part: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64decode(part))
    except (ValueError, UnicodeDecodeError):
        raise InvalidToken("not JSON") from None
    if not isinstance(value, dict):
        raise InvalidToken("not a JSON object")
    return value


def _sign(signing_input: bytes, key: str) -> bytes:
    return hmac.new(key.encode("utf-8"), signing_input, hashlib.sha256).digest()


def encode(payload: dict[str, Any], key: str) -> str:
    """A signed token carrying `payload`."""
    header = _b64encode(json.dumps(HEADER, separators=(",", ":"), sort_keys=True).encode())
    body = _b64encode(json.dumps(payload, separators=(",", ":")).encode())
    signing_input = f"{header}.{body}".encode("ascii")
    return f"{header}.{body}.{_b64encode(_sign(signing_input, key))}"


def _whole(payload: dict[str, Any], claim: str) -> int:
    value = payload[claim]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidToken(f"{claim} must be a number")
    return int(value)


def decode(
    token: str, key: str, *, issuer: str, required: Iterable[str] = (), now: float | None = None
) -> dict[str, Any]:
    """The payload of a genuine, current HS256 token from `issuer` with every `required` claim;
    InvalidToken (ExpiredToken when only its time is up) otherwise."""
    if not isinstance(token, str) or token.count(".") != 2:
        raise InvalidToken("not a compact JWS")
    header_part, body_part, signature_part = token.split(".")
    header = _json(header_part)
    if header.get("alg") != ALGORITHM or "crit" in header:
        raise InvalidToken("algorithm not allowed")
    expected = _sign(f"{header_part}.{body_part}".encode("ascii"), key)
    if not hmac.compare_digest(expected, _b64decode(signature_part)):
        raise InvalidToken("signature does not match")
    payload = _json(body_part)
    missing = [claim for claim in required if claim not in payload]
    if missing:
        raise InvalidToken(f"missing claim {missing[0]}")
    if "sub" in payload and not isinstance(payload["sub"], str):
        raise InvalidToken("sub must be a string")
    if "aud" in payload:
        raise InvalidToken("no audience is accepted")
    now = time.time() if now is None else now
    if "iat" in payload and _whole(payload, "iat") > now:
        raise InvalidToken("issued in the future")
    if "nbf" in payload and _whole(payload, "nbf") > now:
        raise InvalidToken("not valid yet")
    if "exp" in payload and _whole(payload, "exp") <= now:
        raise ExpiredToken("expired")
    if payload.get("iss") != issuer:
        raise InvalidToken("wrong issuer")
    return payload
