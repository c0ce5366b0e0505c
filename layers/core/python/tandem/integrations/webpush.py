"""Browser push (Web Push, RFC 8030 / 8291 / 8292) through pywebpush: VAPID keys, checking a
subscription a browser posted, and sending one message with a result the notifier can act on.

    result = send(subscription, {"title": ..., "body": ..., "url": ...},
                  vapid_private_key=keys.private_key, vapid_subject="mailto:hello@tandem.app",
                  ttl=notifications.push_ttl(source), topic=notifications.push_topic(source, subject=id))
    result.outcome: "delivered" | "gone" (delete the subscription) | "retry" (later, after
                    result.retry_after seconds when the service said) | "failed" (result.reason)
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid, VapidException

from tandem.observability import count_event

DELIVERED, GONE, RETRY, FAILED = "delivered", "gone", "retry", "failed"
DEFAULT_TIMEOUT = 10.0  # seconds, connect and read
MAX_PAYLOAD = 3000  # bytes of JSON; aes128gcm adds 86+ and push services take at most 4096
URGENCIES = ("very-low", "low", "normal", "high")

# Push services browsers subscribe with (endpoint hosts). Anything else is refused, so a member
# cannot make the server POST to an address of their choosing.
PUSH_SERVICE_HOSTS = (
    "fcm.googleapis.com",  # Chrome, Edge (Chromium), Opera, Samsung Internet
    "updates.push.services.mozilla.com",  # Firefox
    "push.services.mozilla.com",
    "web.push.apple.com",  # Safari 16+
    "notify.windows.com",  # legacy Edge / WNS: wns2-*.notify.windows.com
)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


# ---------------------------------------------------------------- VAPID keys


@dataclass(frozen=True)
class VapidKeys:
    private_key: str  # base64url of the raw 32-byte P-256 private scalar (secret)
    public_key: str  # applicationServerKey: base64url of the 65-byte uncompressed public point


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_vapid_keys() -> VapidKeys:
    """A new VAPID key pair (the local stack's first start; AWS stages keep theirs in Secrets Manager)."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return VapidKeys(_b64url(private), application_server_key(_b64url(private)))


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Any:
    try:
        return Vapid.from_string(private_key=private_key)
    except Exception as exc:  # py_vapid raises several types for a bad key
        raise ValueError("The VAPID private key is not a valid P-256 key.") from exc


def application_server_key(private_key: str) -> str:
    """What GET browser-notifications/vapid-public-key answers (publicKey), for
    PushManager.subscribe({applicationServerKey})."""
    point = _vapid(private_key).public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64url(point)


# ---------------------------------------------------------------- subscriptions


SUBSCRIPTION_INVALID = "That push subscription is not valid. Please turn browser notifications on again."
_URL_REFUSED = re.compile(r"[\x00-\x20\x7f\\]")  # controls, spaces, backslashes: no parser agrees on them


def endpoint_problem(endpoint: str, *, allow_loopback: bool = False) -> str:
    """Why the server must not POST to `endpoint` ("" when it may): it must parse as a URL
    (urllib.parse, port included: `:443:443`, `:99999` and `:abc` do not), with no user info,
    and be an https address of a known push service on the default port, or (the local stack's
    stand-in) a loopback address. The one check for a browser's subscription and for every send."""
    if _URL_REFUSED.search(endpoint):
        return "The push endpoint is not a valid address."
    try:
        parts = urlsplit(endpoint)
        port = parts.port  # raises ValueError for a port that is no number or out of range
    except ValueError:
        return "The push endpoint is not a valid address."
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None or not host or parts.fragment:
        return "The push endpoint is not a valid address."
    known = (
        parts.scheme == "https"
        and any(host == h or host.endswith("." + h) for h in PUSH_SERVICE_HOSTS)
        and port in (None, 443)
        and parts.netloc.lower() in (host, f"{host}:443")
    )
    local = (
        allow_loopback
        and parts.scheme in ("http", "https")
        and host in LOOPBACK_HOSTS
        and port is not None
        and port > 0
        and parts.netloc.lower() == f"{host}:{port}"
    )
    return "" if known or local else "The push endpoint is not a known push service."


def validate_subscription(raw: object, *, allow_loopback: bool = False) -> dict[str, Any]:
    """The browser's PushSubscription JSON (POST browser-notifications/subscribe), checked and
    reduced to {endpoint, keys: {p256dh, auth}, expirationTime}. ValueError when unusable:
    not https, not a known push service (loopback allowed for the local stack's fake), or keys that
    are not a P-256 point and a 16-byte secret."""
    if not isinstance(raw, dict):
        raise ValueError(SUBSCRIPTION_INVALID)
    endpoint, keys = raw.get("endpoint"), raw.get("keys")
    if not isinstance(endpoint, str) or len(endpoint) > 1024 or not isinstance(keys, dict):
        raise ValueError(SUBSCRIPTION_INVALID)
    if endpoint_problem(endpoint, allow_loopback=allow_loopback):
        raise ValueError(SUBSCRIPTION_INVALID)
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 100 or len(auth) > 40:
        raise ValueError(SUBSCRIPTION_INVALID)
    try:
        point, secret = _b64url_decode(p256dh), _b64url_decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error):
        raise ValueError(SUBSCRIPTION_INVALID) from None
    if len(point) != 65 or len(secret) != 16:
        raise ValueError(SUBSCRIPTION_INVALID)
    expiration = raw.get("expirationTime")
    number = isinstance(expiration, int | float) and not isinstance(expiration, bool)
    if expiration is not None and not number:
        raise ValueError(SUBSCRIPTION_INVALID)
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}, "expirationTime": expiration}


# ---------------------------------------------------------------- sending


@dataclass(frozen=True)
class PushResult:
    outcome: str  # delivered | gone | retry | failed
    status: int | None = None  # the push service's HTTP status (None: no answer)
    retry_after: int | None = None  # seconds, when the service said (429 / 503 Retry-After)
    reason: str = ""

    @property
    def delivered(self) -> bool:
        return self.outcome == DELIVERED


_TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def retry_after_seconds(value: str | None, now: float | None = None) -> int | None:
    """Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 section 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0, int(when.timestamp() - (time.time() if now is None else now)))


def _reason(response: Any) -> str:
    text = (getattr(response, "text", "") or "").strip().replace("\n", " ")
    return f"{response.status_code} {getattr(response, 'reason', '') or ''}".strip() + (
        f": {text[:200]}" if text else ""
    )


def classify(response: Any) -> PushResult:
    """A push service's answer as the notifier's next step."""
    status = int(response.status_code)
    if status in (200, 201, 202):
        return PushResult(DELIVERED, status)
    if 300 <= status < 400:  # never followed: the push service is the only address we POST to
        return PushResult(FAILED, status, reason=f"The push service answered a redirect ({status}).")
    if status in (404, 410):
        return PushResult(GONE, status, reason="The browser subscription has expired or was removed.")
    retry_after = retry_after_seconds(response.headers.get("Retry-After"))
    if status == 429 or status >= 500:
        return PushResult(RETRY, status, retry_after, _reason(response))
    if status == 413:
        return PushResult(FAILED, status, reason="The notification is too large for the push service.")
    return PushResult(FAILED, status, reason=_reason(response))


@lru_cache(maxsize=1)
def _no_redirect_session_class() -> type:
    class NoRedirectSession(requests.Session):
        """A requests session that never follows a redirect: a push goes to the subscription's
        push service or nowhere (a 307 would otherwise make us POST wherever it points)."""

        def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> Any:
            kwargs["allow_redirects"] = False
            return super().request(method, url, *args, **kwargs)

    return NoRedirectSession


def no_redirect_session() -> Any:
    """A new requests.Session that answers a redirect as it is, never following it."""
    return _no_redirect_session_class()()


def encode_payload(payload: dict[str, Any] | str) -> str:
    data = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
    if len(data.encode()) > MAX_PAYLOAD:
        raise ValueError(f"A push notification can carry at most {MAX_PAYLOAD} bytes.")
    return data


def send(
    subscription: dict[str, Any],
    payload: dict[str, Any] | str,
    *,
    vapid_private_key: str,
    vapid_subject: str,
    ttl: int,
    topic: str | None = None,
    urgency: str = "normal",
    timeout: float = DEFAULT_TIMEOUT,
    session: Any = None,
    allow_loopback: bool = False,
) -> PushResult:
    """Encrypt (aes128gcm) and POST one message to the subscription's push service.

    `ttl` is how long (seconds) the service keeps it for an offline device: pywebpush's default of
    0 drops it unless the device is online at that moment. `topic` (RFC 8030, at most 32 URL-safe
    base64 characters) makes a newer message replace an undelivered one. Redirects are never
    followed (a 3xx is a failed delivery), and an endpoint `endpoint_problem` refuses is never
    asked. Never raises for what the push service answers, for a network failure or for an
    endpoint it cannot use; ValueError for a bad argument."""

    if not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0:
        raise ValueError("The push TTL is a whole number of seconds, 0 or more.")
    if topic is not None and not _TOPIC.match(topic):
        raise ValueError("A push Topic is 1 to 32 characters of A-Z, a-z, 0-9, '-' and '_'.")
    if urgency not in URGENCIES:
        raise ValueError(f"Push urgency is one of: {', '.join(URGENCIES)}.")
    if not vapid_subject.startswith(("mailto:", "https://")):
        raise ValueError("The VAPID subject is a mailto: address or an https:// URL.")
    data = encode_payload(payload)
    problem = endpoint_problem(str(subscription.get("endpoint") or ""), allow_loopback=allow_loopback)
    if problem:
        return PushResult(FAILED, reason=problem)
    headers = {"Urgency": urgency}
    if topic:
        headers["Topic"] = topic
    own_session = session is None  # ours never follows a redirect; closed after this one push
    session = no_redirect_session() if own_session else session
    try:
        return _post(subscription, data, vapid_private_key, vapid_subject, ttl, headers, timeout, session)
    finally:
        if own_session:
            session.close()


def _post(
    subscription: dict[str, Any],
    data: str,
    vapid_private_key: str,
    vapid_subject: str,
    ttl: int,
    headers: dict[str, str],
    timeout: float,
    session: Any,
) -> PushResult:
    from pywebpush import WebPushException, webpush

    try:
        response = webpush(
            subscription_info=subscription,
            data=data,
            vapid_private_key=_vapid(vapid_private_key),
            vapid_claims={"sub": vapid_subject},  # a fresh dict: pywebpush writes aud and exp into it
            content_encoding="aes128gcm",
            ttl=ttl,
            headers=headers,
            timeout=timeout,
            requests_session=session,
        )
    except VapidException as exc:
        raise ValueError(f"VAPID signing failed: {exc}") from None
    except WebPushException as exc:
        if exc.response is None:  # a subscription pywebpush could not use (missing or bad keys)
            return PushResult(FAILED, reason=exc.message)
        return classify(exc.response)
    except (requests.Timeout, requests.ConnectionError) as exc:
        return PushResult(RETRY, reason=f"The push service did not answer: {type(exc).__name__}")
    except requests.RequestException as exc:  # an address requests cannot use, too many redirects
        return PushResult(FAILED, reason=f"The push endpoint could not be used: {type(exc).__name__}")
    result = classify(response)
    if result.delivered:
        count_event("NotificationSentPush")
    return result
