"""A local stand-in for a browser push service (what FCM, Mozilla autopush and Apple run), for
tests and the local stack: headless Chromium cannot subscribe offline, so the app pushes here.

It checks what a real push service checks and decrypts what it receives, so a test proves the
message would reach a browser:
- `POST /push/<id>`: VAPID `Authorization: vapid t=<JWT>,k=<key>` (RFC 8292: ES256 signature by
  `k`, `aud` the endpoint's origin, `exp` in the future and at most 24 h ahead, a `sub`; `k` must be
  the applicationServerKey the subscription was made with), the `TTL` header (required), `Topic`
  and `Urgency` (RFC 8030), an aes128gcm body of at most 4096 bytes (RFC 8291), decrypted with
  http_ece and the subscription's private key. 201 when accepted.
- A subscription can be offline: messages wait (a newer one with the same Topic replaces a waiting
  one; TTL 0 is dropped) and arrive when it comes back online, if their TTL has not run out.
- Scripted answers per subscription: 410 (gone), 429 with Retry-After, 500..., a 307 with a
  Location, once or always.
- Control routes for the local stack and Playwright: `POST /_fake/subscriptions`
  {applicationServerKey} makes a browser-like subscription; `GET /_fake/messages` lists what
  arrived (decrypted).

    push = FakePushService(); push.start(0)
    sub = push.subscribe(application_server_key)      # sub.info() is the PushSubscription JSON
    ... the app sends ...
    push.messages(sub)[0].json()
"""

from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import http_ece
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from infra.local import faults
from infra.local.wsgi_thread import WsgiThread

MAX_BODY = 4096
MAX_EXP_AHEAD = 24 * 3600
CLOCK_SKEW = 60
TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
URGENCIES = ("very-low", "low", "normal", "high")


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class TestSubscription:
    """A browser's push subscription, with the private half the browser would keep."""

    __test__ = False  # not a pytest test class

    id: str
    endpoint: str
    application_server_key: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return _b64url(point)

    @property
    def auth(self) -> str:
        return _b64url(self.auth_secret)

    def info(self) -> dict[str, Any]:
        """PushSubscription.toJSON(), as the page posts it to browser-notifications/subscribe."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        }


@dataclass(frozen=True)
class ReceivedPush:
    subscription_id: str
    payload: bytes  # decrypted
    ttl: int
    topic: str | None
    urgency: str | None
    received_at: float
    body: bytes = b""  # as it came over the wire: aes128gcm, for a test to decrypt on its own

    def text(self) -> str:
        return self.payload.decode()

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass
class _Scripted:
    status: int
    retry_after: str | None
    times: int | None  # None: until cleared
    location: str | None = None  # a redirect's target (a push sender must not follow it)


@dataclass
class _State:
    subscription: TestSubscription
    gone: bool = False
    offline: bool = False
    waiting: list[ReceivedPush] = field(default_factory=list)
    scripted: _Scripted | None = None


class FakePushService(WsgiThread):
    def __init__(self, clock: Any = time.time) -> None:
        super().__init__()
        self._clock = clock
        self._lock = threading.Lock()
        self._states: dict[str, _State] = {}
        self._delivered: list[ReceivedPush] = []
        self._rejected: list[tuple[int, str]] = []
        self._routes = Map(
            [
                Rule("/push/<sub_id>", endpoint="push", methods=["POST"]),
                Rule("/_fake/subscriptions", endpoint="create", methods=["POST"]),
                Rule("/_fake/subscriptions/<sub_id>/answer", endpoint="script", methods=["POST"]),
                Rule("/_fake/messages", endpoint="list", methods=["GET"]),
            ]
        )

    # ------------------------------------------------------------ test and stack controls

    def subscribe(self, application_server_key: str) -> TestSubscription:
        """A new subscription bound to the app's applicationServerKey, as
        PushManager.subscribe({applicationServerKey}) makes: a P-256 key pair and a 16-byte secret."""
        point = _b64url_decode(application_server_key)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)  # ValueError if not a key
        sub_id = uuid.uuid4().hex
        subscription = TestSubscription(
            id=sub_id,
            endpoint=f"{self.url}/push/{sub_id}",
            application_server_key=_b64url(point),
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth_secret=os.urandom(16),
        )
        with self._lock:
            self._states[sub_id] = _State(subscription)
        return subscription

    def answer(
        self,
        subscription: TestSubscription | str,
        status: int,
        retry_after: int | str | None = None,
        times: int | None = 1,
        location: str | None = None,
    ) -> None:
        """The next `times` pushes (None: all, until `answer_normally`) get `status` instead
        (with `Location` when given: a redirect)."""
        with self._lock:
            state = self._state(subscription)
            state.scripted = _Scripted(
                status, None if retry_after is None else str(retry_after), times, location
            )

    def answer_normally(self, subscription: TestSubscription | str) -> None:
        with self._lock:
            self._state(subscription).scripted = None

    def unsubscribe(self, subscription: TestSubscription | str) -> None:
        """The browser dropped the subscription: pushes get 410 Gone from now on."""
        with self._lock:
            self._state(subscription).gone = True

    def set_offline(self, subscription: TestSubscription | str, offline: bool) -> None:
        """Offline: messages wait. Back online: those whose TTL has not run out arrive."""
        with self._lock:
            state = self._state(subscription)
            state.offline = offline
            if not offline:
                now = self._clock()
                self._delivered.extend(m for m in state.waiting if now < m.received_at + m.ttl)
                state.waiting.clear()

    def waiting(self, subscription: TestSubscription | str) -> list[ReceivedPush]:
        with self._lock:
            return list(self._state(subscription).waiting)

    def messages(self, subscription: TestSubscription | str | None = None) -> list[ReceivedPush]:
        """Messages that reached the browser, oldest first."""
        sub_id = None if subscription is None else self._id(subscription)
        with self._lock:
            return [m for m in self._delivered if sub_id is None or m.subscription_id == sub_id]

    def rejected(self) -> list[tuple[int, str]]:
        """(status, reason) of every push this service refused, for a failing test's message."""
        with self._lock:
            return list(self._rejected)

    def clear(self) -> None:
        with self._lock:
            self._delivered.clear()
            self._rejected.clear()
            for state in self._states.values():
                state.waiting.clear()

    @staticmethod
    def _id(subscription: TestSubscription | str) -> str:
        return subscription if isinstance(subscription, str) else subscription.id

    def _state(self, subscription: TestSubscription | str) -> _State:
        try:
            return self._states[self._id(subscription)]
        except KeyError:
            raise KeyError(f"No subscription {self._id(subscription)} on this fake push service") from None

    # ------------------------------------------------------------ HTTP

    def wsgi_app(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        try:
            endpoint, args = self._routes.bind_to_environ(environ).match()
            response = getattr(self, f"_http_{endpoint}")(request, **args)
        except (NotFound, MethodNotAllowed) as exc:
            response = _error(exc.code or 404, exc.description or "Not found")
        except HTTPException as exc:  # pragma: no cover - werkzeug's own
            response = exc.get_response()
        return response(environ, start_response)

    def _refuse(self, status: int, reason: str) -> Response:
        with self._lock:
            self._rejected.append((status, reason))
        return _error(status, reason)

    def _http_push(self, request: Request, sub_id: str) -> Response:
        with self._lock:
            state = self._states.get(sub_id)
        if state is None:
            return self._refuse(404, "No such subscription")
        if state.gone:
            return self._refuse(410, "The subscription has expired or was unsubscribed")
        problem = self._check_vapid(request, state.subscription)
        if problem:
            return self._refuse(*problem)
        ttl_header = request.headers.get("TTL", "")
        if not (ttl_header.isascii() and ttl_header.isdigit()):
            return self._refuse(400, "The TTL header is required: a number of seconds")
        topic = request.headers.get("Topic")
        if topic is not None and not TOPIC.match(topic):
            return self._refuse(400, "Topic must be at most 32 URL-safe base64 characters")
        urgency = request.headers.get("Urgency")
        if urgency is not None and urgency not in URGENCIES:
            return self._refuse(400, f"Urgency must be one of {', '.join(URGENCIES)}")
        if request.headers.get("Content-Encoding", "").lower() != "aes128gcm":
            return self._refuse(400, "Content-Encoding must be aes128gcm")
        body = request.get_data(cache=False)
        if len(body) > MAX_BODY:
            return self._refuse(413, f"The body is larger than {MAX_BODY} bytes")
        fault = faults.hit("push", sub_id)
        if fault is not None:  # infra/local/faults.py: 410 (gone) or a 5xx, for a share or a window
            headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            status = 410 if fault.kind == "410" else int(fault.status or 503)
            return _error(status, "A fault switched on locally", headers)
        with self._lock:
            scripted = state.scripted
            if scripted is not None:
                if scripted.times is not None:
                    scripted.times -= 1
                    if scripted.times <= 0:
                        state.scripted = None
        if scripted is not None:
            headers = {"Retry-After": scripted.retry_after} if scripted.retry_after is not None else {}
            if scripted.location is not None:
                headers["Location"] = scripted.location
            return _error(scripted.status, "Scripted answer", headers)
        subscription = state.subscription
        try:
            payload = http_ece.decrypt(
                body,
                private_key=subscription.private_key,
                auth_secret=subscription.auth_secret,
                version="aes128gcm",
            )
        except Exception as exc:  # http_ece raises several types
            return self._refuse(400, f"The body could not be decrypted: {exc}")
        message = ReceivedPush(sub_id, payload, int(ttl_header), topic, urgency, self._clock(), body)
        with self._lock:
            if state.offline:
                if message.ttl > 0:
                    if topic:
                        state.waiting = [m for m in state.waiting if m.topic != topic]
                    state.waiting.append(message)
            else:
                self._delivered.append(message)
        return Response(
            status=201,
            headers={"Location": f"{self.url}/message/{uuid.uuid4().hex}", "TTL": str(message.ttl)},
        )

    def _check_vapid(self, request: Request, subscription: TestSubscription) -> tuple[int, str] | None:
        header = request.headers.get("Authorization", "")
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            return 401, "Authorization must be 'vapid t=<JWT>,k=<public key>'"
        fields = dict(part.strip().split("=", 1) for part in params.split(",") if "=" in part)
        token, key = fields.get("t"), fields.get("k")
        if not token or not key:
            return 401, "Authorization must carry t= and k="
        try:
            public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64url_decode(key))
        except ValueError:
            return 401, "k is not a P-256 public key"
        if _b64url(_b64url_decode(key)) != subscription.application_server_key:
            return 403, "The VAPID key is not the applicationServerKey this subscription was made with"
        origin = self.url
        try:
            claims = jwt.decode(
                token,
                key=public_key,
                algorithms=["ES256"],
                audience=origin,
                leeway=CLOCK_SKEW,
                options={"require": ["exp", "aud", "sub"]},
            )
        except jwt.ExpiredSignatureError:
            return 401, "The VAPID JWT has expired"
        except jwt.InvalidAudienceError:
            return 401, f"The VAPID JWT's aud must be {origin}"
        except jwt.InvalidSignatureError:
            return 401, "The VAPID JWT's signature does not match k"
        except jwt.InvalidTokenError as exc:
            return 401, f"The VAPID JWT is not valid: {exc}"
        if int(claims["exp"]) > self._clock() + MAX_EXP_AHEAD + CLOCK_SKEW:
            return 401, "The VAPID JWT's exp is more than 24 hours ahead"
        if not str(claims["sub"]).startswith(("mailto:", "https://")):
            return 401, "The VAPID JWT's sub must be a mailto: or https: URL"
        return None

    def _http_create(self, request: Request) -> Response:
        body = request.get_json(silent=True) or {}
        try:
            subscription = self.subscribe(str(body.get("applicationServerKey", "")))
        except ValueError:
            return _error(400, "applicationServerKey must be a base64url P-256 public key")
        return _json(201, subscription.info())

    def _http_script(self, request: Request, sub_id: str) -> Response:
        body = request.get_json(silent=True) or {}
        status = body.get("status")
        if not isinstance(status, int) or not 200 <= status <= 599:
            return _error(400, "status must be an HTTP status")
        try:
            self.answer(sub_id, status, body.get("retryAfter"), body.get("times", 1))
        except KeyError as exc:
            return _error(404, str(exc))
        return _json(200, {"ok": True})

    def _http_list(self, request: Request) -> Response:
        return _json(
            200,
            [
                {
                    "subscription": m.subscription_id,
                    "payload": m.payload.decode(errors="replace"),
                    "ttl": m.ttl,
                    "topic": m.topic,
                    "urgency": m.urgency,
                    "receivedAt": m.received_at,
                }
                for m in reversed(self.messages())
            ],
        )


def _json(status: int, body: Any) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json")


def _error(status: int, reason: str, headers: dict[str, str] | None = None) -> Response:
    return Response(
        json.dumps({"code": status, "reason": reason}),
        status=status,
        mimetype="application/json",
        headers=headers,
    )
