import base64
import os
from email.utils import formatdate

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tandem.integrations import webpush


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _subscription(endpoint="https://fcm.googleapis.com/fcm/send/abc:def", **keys):
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    )
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": _b64(point), "auth": _b64(os.urandom(16)), **keys},
    }


class _Answer:
    def __init__(self, status, headers=None, text=""):
        self.status_code, self.headers, self.text, self.reason = status, headers or {}, text, "Reason"


def test_vapid_keys_are_a_p256_pair_in_base64url():
    keys = webpush.generate_vapid_keys()
    point = base64.urlsafe_b64decode(keys.public_key + "=" * (-len(keys.public_key) % 4))
    assert len(point) == 65 and point[0] == 4
    assert "=" not in keys.public_key and "=" not in keys.private_key
    assert webpush.application_server_key(keys.private_key) == keys.public_key
    assert webpush.generate_vapid_keys() != keys
    with pytest.raises(ValueError, match="not a valid P-256 key"):
        webpush.application_server_key("not-a-key")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
        "https://web.push.apple.com/QGuQ",
        "https://wns2-par02p.notify.windows.com/w/?token=x",
    ],
)
def test_subscriptions_of_the_browsers_push_services_are_accepted(endpoint):
    sub = _subscription(endpoint)
    assert webpush.validate_subscription(sub) == sub


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/abc",  # not https
        "https://evil.example.com/push",
        "https://fcm.googleapis.com.evil.example/x",
        "https://169.254.169.254/latest/meta-data",
        "http://127.0.0.1:9000/push/1",  # loopback only for the local stack
        "https://user:pw@fcm.googleapis.com/x",
        "https://fcm.googleapis.com/" + "a" * 1100,
    ],
)
def test_other_endpoints_are_refused(endpoint):
    with pytest.raises(ValueError) as raised:
        webpush.validate_subscription(_subscription(endpoint))
    assert str(raised.value) == webpush.SUBSCRIPTION_INVALID


def test_loopback_endpoints_only_when_allowed():
    sub = _subscription("http://127.0.0.1:18700/push/1")
    assert webpush.validate_subscription(sub, allow_loopback=True)["endpoint"] == sub["endpoint"]


MALFORMED_PORTS = [
    "https://fcm.googleapis.com:443:443/fcm/send/x",
    "https://fcm.googleapis.com:99999/fcm/send/x",
    "https://fcm.googleapis.com:abc/fcm/send/x",
    "https://fcm.googleapis.com:-1/fcm/send/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",  # a push service listens on 443 only
    "https://fcm.googleapis.com:/fcm/send/x",
    "https://fcm.googleapis.com\\@evil.example/x",
    "https://fcm.googleapis.com /x",
    "http://127.0.0.1:99999/push/1",
    "http://127.0.0.1:abc/push/1",
    "http://127.0.0.1:9000:9000/push/1",
    "http://127.0.0.1/push/1",  # the local stand-in always has its port
]


@pytest.mark.parametrize("endpoint", MALFORMED_PORTS)
def test_endpoints_a_url_parser_refuses_are_refused_in_production_and_locally(endpoint):
    """urllib.parse (port included) decides; the production allow-list check and the local one
    are the same function, and a send to such an endpoint fails without any request."""
    for allow_loopback in (False, True):
        assert webpush.endpoint_problem(endpoint, allow_loopback=allow_loopback)
        with pytest.raises(ValueError) as raised:
            webpush.validate_subscription(_subscription(endpoint), allow_loopback=allow_loopback)
        assert str(raised.value) == webpush.SUBSCRIPTION_INVALID
    keys = webpush.generate_vapid_keys()
    result = webpush.send(
        _subscription(endpoint),
        {"title": "x"},
        vapid_private_key=keys.private_key,
        vapid_subject="mailto:hello@tandem.app",
        ttl=60,
        allow_loopback=True,
    )
    assert (result.outcome, result.status) == ("failed", None)


@pytest.mark.parametrize(
    "endpoint", ["https://fcm.googleapis.com:443/fcm/send/x", "https://FCM.googleapis.com/fcm/send/x"]
)
def test_the_default_port_spelled_out_is_the_same_address(endpoint):
    assert webpush.endpoint_problem(endpoint) == ""


@pytest.mark.parametrize(
    "broken",
    [
        None,
        [],
        {"endpoint": "https://fcm.googleapis.com/x"},
        {**_subscription(), "keys": {"p256dh": "abc", "auth": _b64(os.urandom(16))}},
        _subscription(auth=_b64(os.urandom(8))),
        _subscription(p256dh=_b64(b"\x04" + b"\x01" * 64)),  # not on the curve
        _subscription(p256dh=5),
        {**_subscription(), "expirationTime": "soon"},
    ],
)
def test_broken_subscriptions_are_refused(broken):
    with pytest.raises(ValueError):
        webpush.validate_subscription(broken)


def test_a_redirect_is_a_failed_delivery():
    for status in (301, 302, 303, 307, 308):
        result = webpush.classify(_Answer(status, {"Location": "http://127.0.0.1:1/x"}))
        assert (result.outcome, result.status) == ("failed", status)
        assert "redirect" in result.reason


def test_classification_of_push_service_answers():
    assert webpush.classify(_Answer(201)).outcome == "delivered"
    assert webpush.classify(_Answer(410)).outcome == "gone"
    assert webpush.classify(_Answer(404)).outcome == "gone"
    limited = webpush.classify(_Answer(429, {"Retry-After": "120"}))
    assert (limited.outcome, limited.retry_after) == ("retry", 120)
    assert webpush.classify(_Answer(503)).outcome == "retry"
    assert webpush.classify(_Answer(503)).retry_after is None
    too_big = webpush.classify(_Answer(413))
    assert too_big.outcome == "failed" and "too large" in too_big.reason
    denied = webpush.classify(_Answer(403, text="invalid JWT provided"))
    assert denied.outcome == "failed" and denied.reason == "403 Reason: invalid JWT provided"


def test_retry_after_is_seconds_or_an_http_date():
    assert webpush.retry_after_seconds("30") == 30
    assert webpush.retry_after_seconds(formatdate(1_000_090, usegmt=True), now=1_000_000) == 90
    assert webpush.retry_after_seconds(formatdate(999_000, usegmt=True), now=1_000_000) == 0
    assert webpush.retry_after_seconds("soon") is None
    assert webpush.retry_after_seconds(None) is None


def test_bad_arguments_are_refused_before_anything_is_sent():
    keys = webpush.generate_vapid_keys()
    sub = _subscription("http://127.0.0.1:9/never-called")
    common = {"vapid_private_key": keys.private_key, "vapid_subject": "mailto:a@tandem.test"}
    with pytest.raises(ValueError, match="TTL"):
        webpush.send(sub, {}, ttl=-1, **common)
    with pytest.raises(ValueError, match="Topic"):
        webpush.send(sub, {}, ttl=60, topic="has space", **common)
    with pytest.raises(ValueError, match="urgency"):
        webpush.send(sub, {}, ttl=60, urgency="urgent", **common)
    with pytest.raises(ValueError, match="at most 3000 bytes"):
        webpush.send(sub, {"body": "x" * 3000}, ttl=60, **common)
    with pytest.raises(ValueError, match="VAPID subject"):
        webpush.send(sub, {}, ttl=60, vapid_private_key=keys.private_key, vapid_subject="me")
