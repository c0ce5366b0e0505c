"""AWS access for the whole process: ONE botocore session, and one client per service made from
it, shared by every caller (pynamodb's models through tandem.store.connection, SQS, Step
Functions, S3, SES, Secrets Manager).

A new botocore session re-reads the service and endpoint JSON models for each client it makes,
so before this each pynamodb model class (one session and client each) cost a member's first
request tens of milliseconds. Clients are created under a lock (botocore client creation is not
thread-safe; the local stack calls handlers from many threads); a made client is thread-safe.
Plain botocore clients, not boto3's: they are the same API, and the function never imports boto3.

`register` hooks botocore events on the session and on every client already made (the
benchmarks count DynamoDB calls with `before-call.dynamodb`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import botocore.session
from botocore.config import Config

from tandem.config import settings

_lock = threading.RLock()
_session: Any = None
_clients: dict[str, Any] = {}

# pynamodb's own client settings (pynamodb.settings defaults), for the shared DynamoDB client.
DYNAMODB_CONNECT_TIMEOUT = 15
DYNAMODB_READ_TIMEOUT = 30
DYNAMODB_MAX_ATTEMPTS = 4  # pynamodb's LEGACY mode: 1 + max_retry_attempts (3), standard retries
MAX_POOL_CONNECTIONS = 50  # the local stack serves many requests at once through one client


def session() -> Any:
    """The process's botocore session (created once; credentials and models load once)."""
    global _session
    if _session is None:
        with _lock:
            if _session is None:
                _session = botocore.session.get_session()
    return _session


def _config(service: str) -> Any:
    if service == "dynamodb":
        return Config(
            parameter_validation=False,  # as pynamodb configures its client: it validates itself
            connect_timeout=DYNAMODB_CONNECT_TIMEOUT,
            read_timeout=DYNAMODB_READ_TIMEOUT,
            max_pool_connections=MAX_POOL_CONNECTIONS,
            retries={"total_max_attempts": DYNAMODB_MAX_ATTEMPTS, "mode": "standard"},
        )
    return Config(max_pool_connections=MAX_POOL_CONNECTIONS)


def _usable(made: Any) -> bool:
    """A client that resolved no credentials is never reused (botocore caches the empty ones)."""
    signer = getattr(made, "_request_signer", None)
    return signer is None or signer._credentials is not None


def client(service: str) -> Any:
    """The shared client of `service` (a botocore client), created on first use."""
    made = _clients.get(service)
    if made is not None and _usable(made):
        return made
    with _lock:
        made = _clients.get(service)
        if made is None or not _usable(made):
            current = settings()
            made = session().create_client(
                service,
                region_name=current.region,
                endpoint_url=current.endpoint_url,
                config=_config(service),
            )
            _clients[service] = made
    return made


def register(event: str, handler: Callable[..., Any], unique_id: str) -> None:
    """Hook a botocore event (e.g. 'before-call.dynamodb') on the session, which every client
    made from now on copies, and on the clients already made."""
    with _lock:
        session().register(event, handler, unique_id=unique_id)
        for made in _clients.values():
            made.meta.events.register(event, handler, unique_id=unique_id)


def unregister(event: str, unique_id: str) -> None:
    """Undo `register` (a test's counter)."""
    with _lock:
        session().unregister(event, unique_id=unique_id)
        for made in _clients.values():
            made.meta.events.unregister(event, unique_id=unique_id)


# ---------------------------------------------------------------- secrets

SECRET_MAX_AGE = 300.0  # seconds a secret value is reused before Secrets Manager is asked again
_secrets: dict[str, tuple[float, str]] = {}


_prefetches: dict[str, threading.Event] = {}
PREFETCH_WAIT = 10.0  # seconds a caller waits for a prefetch before asking Secrets Manager itself


def prefetch_secret(name: str) -> None:
    """Start reading a secret on a background thread, so the read (a Secrets Manager client and
    a round trip: its own TLS connection in AWS) overlaps what the caller does meanwhile; the
    API function starts the JWT key's at import, and its imports then hide it. `get_secret`
    waits for it instead of asking again. A failed prefetch leaves nothing behind: the next
    `get_secret` asks Secrets Manager itself (and raises what it raises)."""
    with _lock:
        if name in _secrets or name in _prefetches:
            return
        done = _prefetches[name] = threading.Event()

    def fetch() -> None:
        try:
            value = client("secretsmanager").get_secret_value(SecretId=name)["SecretString"]
            with _lock:
                if _prefetches.get(name) is done:  # not forgotten meanwhile (reset_clients)
                    _secrets[name] = (time.monotonic(), value)
        except Exception:  # noqa: S110 (get_secret asks again and reports the error)
            pass
        finally:
            with _lock:
                if _prefetches.get(name) is done:
                    del _prefetches[name]
            done.set()

    threading.Thread(target=fetch, name=f"prefetch-secret-{name}", daemon=True).start()


def get_secret(name: str) -> str:
    """A secret's string value, cached for SECRET_MAX_AGE seconds per process (the JWT key is
    read on every signed-in request; Secrets Manager is asked at most once per 5 minutes)."""
    pending = _prefetches.get(name)
    if pending is not None:
        pending.wait(PREFETCH_WAIT)
    now = time.monotonic()
    cached = _secrets.get(name)
    if cached is not None and now - cached[0] < SECRET_MAX_AGE:
        return cached[1]
    value = client("secretsmanager").get_secret_value(SecretId=name)["SecretString"]
    _secrets[name] = (now, value)
    return value


def reset_clients() -> None:
    """Forget clients and cached secrets (the environment changed: tests, the local stack).
    The session stays, with the event hooks registered on it; the models' shared connection
    asks for the client on every call, so it follows."""
    with _lock:
        _clients.clear()
        _secrets.clear()
        _prefetches.clear()
