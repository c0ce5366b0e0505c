"""Access tokens are HS256 JWTs (tandem.domain.jws), checked here against PyJWT both ways."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import jwt
import pytest

from tandem.domain import jws

KEY = "k" * 48
NOW = int(time.time()) - 1  # PyJWT reads the clock itself: tokens made just now
CLAIMS = {
    "sub": "u1",
    "acc": "a1",
    "access": "member",
    "typ": "access",
    "iss": "tandem",
    "iat": NOW,
    "exp": NOW + 86400,
}
REQUIRED = ("exp", "iat", "sub", "iss")


def ours(token: str, **kwargs) -> dict:
    return jws.decode(token, KEY, issuer="tandem", required=REQUIRED, **kwargs)


def pyjwt(token: str) -> dict:
    return jwt.decode(token, KEY, algorithms=["HS256"], issuer="tandem", options={"require": list(REQUIRED)})


def test_tokens_round_trip_with_pyjwt_both_ways():
    assert pyjwt(jws.encode(CLAIMS, KEY)) == CLAIMS
    assert ours(jwt.encode(CLAIMS, KEY, algorithm="HS256")) == CLAIMS


def _forge(header: dict, payload: dict, key: str = KEY) -> str:
    """A token with any header, correctly signed with HMAC-SHA256 (PyJWT would refuse to make some)."""

    def part(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    signing_input = f"{part(json.dumps(header).encode())}.{part(json.dumps(payload).encode())}"
    return f"{signing_input}.{part(hmac.new(key.encode(), signing_input.encode(), hashlib.sha256).digest())}"


def _tampered_signature(token: str) -> str:
    """The token with its signature's first character changed (six bits of the first byte, always
    a different signature). Changing its last two characters instead came back the same 1 time in
    256: the last character's low four bits are padding a decoder ignores, so "...AA" for "...AB"
    was the same signature, and the claims carry the second the test run started (s55f)."""
    head, _, signature = token.rpartition(".")
    return f"{head}.{'B' if signature[0] == 'A' else 'A'}{signature[1:]}"


@pytest.mark.parametrize(
    "token",
    [
        jwt.encode(CLAIMS, "another key " * 4, algorithm="HS256"),  # wrong key
        jwt.encode(CLAIMS, KEY * 2, algorithm="HS512"),  # another algorithm
        _forge({"alg": "none", "typ": "JWT"}, CLAIMS),
        _forge({"alg": "HS256", "crit": ["exp"]}, CLAIMS),
        _forge({"alg": "HS256"}, {**CLAIMS, "iss": "someone"}),
        _forge({"alg": "HS256"}, {k: v for k, v in CLAIMS.items() if k != "sub"}),
        _forge({"alg": "HS256"}, {**CLAIMS, "sub": 7}),
        _forge({"alg": "HS256"}, {**CLAIMS, "iat": NOW + 3600}),
        _forge({"alg": "HS256"}, {**CLAIMS, "nbf": NOW + 3600}),
        _forge({"alg": "HS256"}, {**CLAIMS, "aud": "elsewhere"}),
        _forge({"alg": "HS256"}, {**CLAIMS, "exp": "soon"}),
        "a.b",
        "a.b.c.d",
        "",
        "é.é.é",
        _tampered_signature(jws.encode(CLAIMS, KEY)),
        jws.encode(CLAIMS, KEY).replace(".", ".e30", 1),  # tampered payload
    ],
    # Names, not the tokens: tokens carry the time, and pytest-xdist workers must collect the
    # same test ids (two workers starting in different seconds made CI fail at collection).
    ids=[
        "wrong-key",
        "hs512",
        "alg-none",
        "crit",
        "other-issuer",
        "no-sub",
        "sub-not-text",
        "iat-future",
        "nbf-future",
        "aud",
        "exp-not-number",
        "two-parts",
        "four-parts",
        "empty",
        "not-ascii",
        "tampered-signature",
        "tampered-payload",
    ],
)
def test_what_pyjwt_refuses_is_refused(token):
    with pytest.raises(jwt.PyJWTError):
        pyjwt(token)
    with pytest.raises(jws.InvalidToken):
        ours(token)


def test_an_expired_token_is_told_apart():
    now = int(time.time())
    expired = jws.encode({**CLAIMS, "exp": now - 5}, KEY)
    with pytest.raises(jwt.ExpiredSignatureError):
        pyjwt(expired)
    with pytest.raises(jws.ExpiredToken):
        ours(expired)
    assert ours(jws.encode({**CLAIMS, "exp": now + 60}, KEY))["exp"] == now + 60


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t + "=",  # padding
        lambda t: t + "!",  # a character base64 decoding would silently skip
        lambda t: t[:-2] + "+" + t[-1],  # the standard alphabet instead of the URL-safe one
        lambda t: t.replace(".", ". ", 1),  # whitespace inside a part
    ],
)
def test_one_token_has_one_spelling(change):
    """A signed token altered in a way the base64 decoder would forgive is refused, so a
    token string is never accepted in more than one spelling."""
    token = jws.encode(CLAIMS, KEY)
    assert ours(token) == CLAIMS
    with pytest.raises(jws.InvalidToken):
        ours(change(token))
