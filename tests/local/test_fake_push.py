"""Browser push end to end, offline: tandem.integrations.webpush sends through the real pywebpush
to the local push service stand-in, which checks VAPID and decrypts with http_ece."""

from __future__ import annotations

import json
import socket
import time

import jwt
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPusher

from infra.local.fake_push import FakePushService
from tandem.domain import notifications
from tandem.integrations import webpush

SUBJECT = "mailto:hello@tandem.test"


@pytest.fixture(scope="module")
def keys() -> webpush.VapidKeys:
    return webpush.generate_vapid_keys()


def _send(sub, keys, payload=None, **kwargs):
    options = {"ttl": 3600, "topic": None, "allow_loopback": True, **kwargs}
    return webpush.send(
        sub.info(),
        payload or {"title": "Hi", "body": "There"},
        vapid_private_key=keys.private_key,
        vapid_subject=SUBJECT,
        **options,
    )


def test_a_sent_message_arrives_decrypted_with_its_ttl_and_topic(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    payload = {
        "title": "Bean There would like to collaborate",
        "body": "Oat & Honey has a new request — «café»",
        "icon": "/icon-192.png",
        "url": "/requests/received/2/req1",
    }
    ttl = notifications.push_ttl("requests_received")
    topic = notifications.push_topic("requests_received", subject="req1")
    result = _send(sub, keys, payload, ttl=ttl, topic=topic, urgency="high")
    assert result == webpush.PushResult("delivered", 201), fake_push.rejected()
    [message] = fake_push.messages(sub)
    assert message.json() == payload
    assert (message.ttl, message.topic, message.urgency) == (ttl, topic, "high")


def test_the_subscription_json_the_browser_posts_is_accepted_locally(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    checked = webpush.validate_subscription(sub.info(), allow_loopback=True)
    assert checked == sub.info()
    with pytest.raises(ValueError):
        webpush.validate_subscription(sub.info())  # loopback only where the local stack allows it


def test_gone_subscription_is_410_and_the_caller_deletes_it(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    fake_push.unsubscribe(sub)
    result = _send(sub, keys)
    assert result.outcome == "gone" and result.status == 410
    assert fake_push.messages(sub) == []


def test_scripted_answers_once_then_back_to_normal(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    fake_push.answer(sub, 404)
    assert _send(sub, keys).outcome == "gone"
    assert _send(sub, keys).outcome == "delivered"


def test_429_is_retried_after_the_services_retry_after(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    fake_push.answer(sub, 429, retry_after=30)
    result = _send(sub, keys)
    assert (result.outcome, result.status, result.retry_after) == ("retry", 429, 30)
    assert fake_push.messages(sub) == []
    assert _send(sub, keys).delivered  # the retry goes through


def test_server_errors_are_retried_and_other_4xx_fail_with_the_reason(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    fake_push.answer(sub, 500, times=None)
    assert _send(sub, keys).outcome == "retry"
    assert _send(sub, keys).outcome == "retry"
    fake_push.answer(sub, 400, times=1)
    failed = _send(sub, keys)
    assert failed.outcome == "failed" and failed.status == 400 and "Scripted answer" in failed.reason


def test_a_push_signed_with_another_vapid_key_is_refused(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    other = webpush.generate_vapid_keys()
    result = _send(sub, other)
    assert result.outcome == "failed" and result.status == 403
    assert "applicationServerKey" in result.reason
    assert fake_push.messages(sub) == []


def _raw_post(sub, authorization: str, data: bytes = b"hello", **headers) -> requests.Response:
    encoded = WebPusher(sub.info()).encode(data, "aes128gcm")
    base = {"TTL": "60", "Content-Encoding": "aes128gcm", "Authorization": authorization}
    return requests.post(sub.endpoint, data=encoded["body"], headers={**base, **headers}, timeout=5)


def _vapid_header(signing_key, claims, k_key) -> str:
    """What pywebpush sends, made by hand so that a test can break one part of it."""
    token = jwt.encode(claims, signing_key, algorithm="ES256")
    point = k_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return f"vapid t={token},k={webpush._b64url(point)}"


def _claims(fake_push, **overrides):
    return {"aud": fake_push.url, "exp": int(time.time()) + 3600, "sub": SUBJECT, **overrides}


def test_a_bad_vapid_signature_is_401(fake_push, keys):
    app_key = Vapid.from_string(keys.private_key).private_key
    sub = fake_push.subscribe(keys.public_key)
    impostor = ec.generate_private_key(ec.SECP256R1())
    answer = _raw_post(sub, _vapid_header(impostor, _claims(fake_push), k_key=app_key))  # k says it's the app
    assert answer.status_code == 401
    assert answer.json()["reason"] == "The VAPID JWT's signature does not match k"
    good = _raw_post(sub, _vapid_header(app_key, _claims(fake_push), k_key=app_key))
    assert good.status_code == 201, good.text
    assert [m.payload for m in fake_push.messages(sub)] == [b"hello"]


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"aud": "https://fcm.googleapis.com"}, "The VAPID JWT's aud must be"),
        # exp as an offset from the moment the test runs (collection may be an hour earlier)
        ({"exp": -3600}, "The VAPID JWT has expired"),
        ({"exp": 25 * 3600}, "The VAPID JWT's exp is more than 24 hours ahead"),
        ({"sub": "hello"}, "The VAPID JWT's sub must be a mailto: or https: URL"),
    ],
)
def test_vapid_claims_are_checked(fake_push, keys, claims, reason):
    app_key = Vapid.from_string(keys.private_key).private_key
    sub = fake_push.subscribe(keys.public_key)
    if "exp" in claims:
        claims = {**claims, "exp": int(time.time()) + claims["exp"]}
    answer = _raw_post(sub, _vapid_header(app_key, _claims(fake_push, **claims), k_key=app_key))
    assert answer.status_code == 401 and answer.json()["reason"].startswith(reason)


def test_missing_authorization_ttl_or_encryption_is_refused(fake_push, keys):
    app_key = Vapid.from_string(keys.private_key).private_key
    sub = fake_push.subscribe(keys.public_key)
    good = _vapid_header(app_key, _claims(fake_push), k_key=app_key)
    assert _raw_post(sub, "").status_code == 401
    assert _raw_post(sub, "WebPush abc").status_code == 401
    assert _raw_post(sub, good, TTL="").status_code == 400
    assert _raw_post(sub, good, Topic="x" * 33).status_code == 400
    assert _raw_post(sub, good, **{"Content-Encoding": "aesgcm"}).status_code == 400
    assert _raw_post(sub, good, data=b"x" * 5000).status_code == 413
    answer = requests.post(
        sub.endpoint,
        data=b"not encrypted at all",
        headers={"TTL": "60", "Content-Encoding": "aes128gcm", "Authorization": good},
        timeout=5,
    )
    assert answer.status_code == 400 and "decrypted" in answer.json()["reason"]
    assert fake_push.messages(sub) == []


def test_unknown_endpoint_is_gone(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    info = sub.info()
    info["endpoint"] = f"{fake_push.url}/push/nosuchsubscription"
    result = webpush.send(
        info, {"t": 1}, vapid_private_key=keys.private_key, vapid_subject=SUBJECT, ttl=60, allow_loopback=True
    )
    assert result.outcome == "gone" and result.status == 404


def test_offline_device_gets_the_newest_message_per_topic_and_ttl_0_is_dropped(fake_push, keys):
    sub = fake_push.subscribe(keys.public_key)
    fake_push.set_offline(sub, True)
    assert _send(sub, keys, {"n": 1}, ttl=0).delivered  # accepted, then dropped: nobody was there
    assert _send(sub, keys, {"n": 2}, ttl=600, topic="matches-run").delivered
    assert _send(sub, keys, {"n": 3}, ttl=600, topic="matches-run").delivered  # replaces n=2
    assert _send(sub, keys, {"n": 4}, ttl=600, topic="req-in-abc").delivered
    assert [m.json()["n"] for m in fake_push.waiting(sub)] == [3, 4]
    fake_push.set_offline(sub, False)
    assert [m.json()["n"] for m in fake_push.messages(sub)] == [3, 4]


def test_network_failures_are_retried(keys):
    service = FakePushService()
    service.start(0)
    sub = service.subscribe(keys.public_key)
    service.stop()  # nothing listens on the endpoint any more
    result = _send(sub, keys)
    assert result.outcome == "retry" and "ConnectionError" in result.reason


def test_a_service_that_does_not_answer_times_out_and_is_retried(keys):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection, never answers
    try:
        service = FakePushService()
        service.start(0)
        sub = service.subscribe(keys.public_key)
        service.stop()
        sub.endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}/push/{sub.id}"
        result = _send(sub, keys, timeout=0.3)
        assert result.outcome == "retry" and "Timeout" in result.reason
    finally:
        silent.close()


def test_the_local_stack_control_routes(fake_push, keys):
    created = requests.post(
        f"{fake_push.url}/_fake/subscriptions", json={"applicationServerKey": keys.public_key}, timeout=5
    )
    assert created.status_code == 201
    info = created.json()
    assert webpush.validate_subscription(info, allow_loopback=True) == info
    result = webpush.send(
        info,
        {"title": "Test"},
        vapid_private_key=keys.private_key,
        vapid_subject=SUBJECT,
        ttl=300,
        topic="test",
        allow_loopback=True,
    )
    assert result.delivered
    listed = requests.get(f"{fake_push.url}/_fake/messages", timeout=5).json()
    assert [(m["payload"], m["topic"], m["ttl"]) for m in listed] == [
        (json.dumps({"title": "Test"}, separators=(",", ":")), "test", 300)
    ]
    sub_id = info["endpoint"].rsplit("/", 1)[1]
    scripted = requests.post(
        f"{fake_push.url}/_fake/subscriptions/{sub_id}/answer", json={"status": 410, "times": None}, timeout=5
    )
    assert scripted.status_code == 200
    again = webpush.send(
        info, {"t": 2}, vapid_private_key=keys.private_key, vapid_subject=SUBJECT, ttl=60, allow_loopback=True
    )
    assert again.outcome == "gone"
    bad = requests.post(
        f"{fake_push.url}/_fake/subscriptions", json={"applicationServerKey": "nope"}, timeout=5
    )
    assert bad.status_code == 400


def test_what_pywebpush_sends_decrypts_with_the_test_subscriptions_own_keys(fake_push, keys):
    """The proof does not rest on the stand-in: the wire body, decrypted here with http_ece and
    the private half the browser keeps, is the payload; another browser's keys cannot read it."""
    import http_ece

    sub = fake_push.subscribe(keys.public_key)
    other = fake_push.subscribe(keys.public_key)
    payload = {"title": "Oat & Co accepted", "body": "Say hello", "url": "/connections/1/2"}
    assert _send(sub, keys, payload).delivered
    [message] = fake_push.messages(sub)
    assert message.body[:16] != message.payload[:16]  # encrypted on the wire
    plain = http_ece.decrypt(
        message.body, private_key=sub.private_key, auth_secret=sub.auth_secret, version="aes128gcm"
    )
    assert json.loads(plain) == payload
    with pytest.raises(Exception):  # noqa: B017 - http_ece raises several types
        http_ece.decrypt(
            message.body, private_key=other.private_key, auth_secret=other.auth_secret, version="aes128gcm"
        )
