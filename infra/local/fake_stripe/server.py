"""FakeStripe: the WSGI app, its in-process server thread (infra/local/wsgi_thread.py), and the
Python test controls."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request, Response

from infra.local import faults
from infra.local.fake_stripe.api import Api
from infra.local.fake_stripe.controls import Controls
from infra.local.fake_stripe.engine import Engine
from infra.local.fake_stripe.pages import Pages
from infra.local.fake_stripe.store import Store, public
from infra.local.fake_stripe.util import StripeError
from infra.local.fake_stripe.webhooks import DEFAULT_RETRY_DELAYS, Dispatcher
from infra.local.wsgi_thread import QuietHandler, WsgiThread, listening_socket

__all__ = ["FakeStripe", "listening_socket"]

MAX_BODY = 1024 * 1024
logger = logging.getLogger(__name__)


def _error_response(status: int, message: str) -> Response:
    kind = "api_error" if status >= 500 else "invalid_request_error"
    body = json.dumps({"error": {"type": kind, "message": message}})
    return Response(body, status=status, mimetype="application/json")


def _faulty(fault: Any, environ: dict[str, Any], start_response: Callable[..., Any], answer: Any) -> Any:
    """A switched-on fault (infra/local/faults.py) instead of the answer: `down` resets the
    connection before a byte is sent (the client sees what a refused or dropped connection
    gives it: a connection error), `slow` answers after `delay` seconds, `500` is Stripe's
    api_error, `429` its rate_limit error with Retry-After."""
    if fault.kind == "down":
        sock = environ.get("werkzeug.socket")
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)  # closed before a byte of the answer: a connection error
        start_response("503 Service Unavailable", [])  # written to nobody (werkzeug drops it quietly)
        return [b""]
    if fault.kind == "slow":
        time.sleep(fault.delay)  # the client's read timeout is real time: this wait is too
        return answer()(environ, start_response)
    if fault.kind == "429":
        body = {
            "error": {
                "type": "invalid_request_error",
                "code": "rate_limit",
                "message": "Too many requests hit the API too quickly (a fault switched on locally).",
            }
        }
        headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
        response = Response(json.dumps(body), status=429, mimetype="application/json", headers=headers)
        return response(environ, start_response)
    response = _error_response(500, "An error occurred with our connection to Stripe (a local fault).")
    return response(environ, start_response)


class FakeStripe(WsgiThread):
    """A local stand-in for the Stripe API, hosted pages and webhooks.

    fake = FakeStripe(webhook_url="http://127.0.0.1:8000/api/stripe/webhook", webhook_secret="whsec_...")
    base = fake.start(18610)          # stripe.api_base = base
    ...
    fake.stop()
    """

    request_handler = QuietHandler
    finish_requests_on_stop = True  # stop() waits for requests in progress: the port is free after it

    def __init__(
        self,
        *,
        webhook_url: str | None = None,
        webhook_secret: str | None = None,
        webhook_events: list[str] | None = None,
        api_key: str | None = None,
        state_file: str | Path | None = None,
        public_url: str | None = None,
        account_name: str = "Tandem",
        retry_delays: Iterable[float] = DEFAULT_RETRY_DELAYS,
        delivery_timeout: float = 10.0,
        start_at: int | None = None,
    ) -> None:
        """`start_at`: the test clock's start (Unix seconds), like a Stripe test clock's
        `frozen_time`; it then runs on with the wall clock. Ignored when `state_file` already
        holds a clock (a restart keeps the time it had)."""
        super().__init__()
        self.store = Store(state_file)
        if start_at is not None and not self.store.clock_offset:
            self.store.clock_offset = int(start_at) - int(self.store.clock())
        self._public_url = public_url.rstrip("/") if public_url else None
        self._port: int | None = None
        self.engine = Engine(self.store, lambda: self.base_url, account_name)
        self.webhooks = Dispatcher(self.store, retry_delays, delivery_timeout)
        self.engine.on_event = self.webhooks.enqueue
        self.api = Api(self.engine, self.store, self.webhooks, api_key, self._notify)
        self.pages = Pages(self.engine, self.store, account_name, self._notify)
        self.controls = Controls(self)
        if webhook_url:
            self.configure_webhook(webhook_url, webhook_secret, webhook_events)

    # --- serving -----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._public_url:
            return self._public_url
        if self._port is None:
            return "http://127.0.0.1"
        return f"http://127.0.0.1:{self._port}"

    def wsgi_app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        request.max_content_length = MAX_BODY
        path = request.path
        try:
            if path.startswith("/v1/") or path == "/v1":
                fault = faults.hit("stripe", f"{request.method} {path}")
                if fault is not None:
                    return _faulty(fault, environ, start_response, lambda: self.api.handle(request))
                response = self.api.handle(request)
            elif path.startswith("/_test/"):
                response = self.controls.handle(request)
            else:
                response = self.pages.handle(request)
        except HTTPException as error:  # e.g. a body over MAX_BODY
            response = _error_response(error.code or 400, error.description or error.name)
        except Exception:  # a defect in the fake: say so as Stripe says it (500 api_error), keep serving
            logger.exception("fake Stripe: %s %s failed", request.method, path)
            response = _error_response(500, "The local Stripe fake failed on this request (see its log).")
        return response(environ, start_response)

    __call__ = wsgi_app

    def start(self, port: int = 0, host: str = "127.0.0.1") -> str:
        """Serve on host:port (0 picks a free port) on a daemon thread and start webhook
        delivery. Returns the base URL to give stripe-python (`stripe.api_base`)."""
        self.host = host
        super().start(port)
        self._port = self.port
        self.webhooks.start()
        return self.base_url

    def stop(self) -> None:
        self.webhooks.stop()
        super().stop()
        with self.store.lock:
            self.store.save()

    def __enter__(self) -> FakeStripe:
        return self  # started by start(port), which names the port

    def _notify(self) -> None:
        with self.webhooks.changed:
            self.webhooks.changed.notify_all()

    # --- webhook endpoints ---------------------------------------------------------------------

    def configure_webhook(
        self, url: str, secret: str | None = None, enabled_events: list[str] | None = None
    ) -> str:
        """Deliver events to `url`, signed with `secret`. An endpoint already saved for that URL
        (state file) is kept and given this secret. Returns the endpoint id."""
        with self.store.lock:
            for endpoint in self.store.all("webhook_endpoint"):
                if endpoint["url"] == url:
                    if secret:
                        endpoint["_secret"] = secret
                    endpoint["enabled_events"] = enabled_events or endpoint["enabled_events"]
                    self.store.save()
                    return endpoint["id"]
        return self.webhooks.add_endpoint(url, secret=secret, enabled_events=enabled_events)["id"]

    def webhook_secret(self, endpoint_id: str | None = None) -> str:
        with self.store.lock:
            endpoints = self.store.all("webhook_endpoint")
            for endpoint in endpoints:
                if endpoint_id is None or endpoint["id"] == endpoint_id:
                    return endpoint["_secret"]
        raise KeyError(endpoint_id or "no webhook endpoint")

    # --- test controls -------------------------------------------------------------------------

    def now(self) -> int:
        """The fake's clock (Unix seconds): the wall clock plus every advance."""
        with self.store.lock:
            return self.engine.now()

    def advance_clock(self, seconds: int = 0, *, days: int = 0, hours: int = 0) -> int:
        """Move the clock forward and run what falls due (renewals, plan ends, trial ends,
        checkout expiries, payment retries), in time order. Returns the new time."""
        with self.store.lock, self.engine.request(None, None):
            now = self.engine.advance(seconds + hours * 3600 + days * 86400)
            self.store.save()
        self._notify()
        return now

    def pause_delivery(self) -> None:
        self.webhooks.pause()

    def resume_delivery(self) -> None:
        self.webhooks.resume()

    def reorder_pending(self, order: str | list[str] = "reverse", seed: int | None = None) -> list[str]:
        """'reverse', 'shuffle' (seeded) or a list of event ids; returns the pending event ids."""
        return self.webhooks.reorder(order, seed)

    def duplicate_events(self, times: int = 2, event_types: list[str] | None = None) -> None:
        """Deliver every following event (or those matching patterns like 'invoice.*') `times`
        times, each copy with the same event id; times=1 stops."""
        self.webhooks.set_duplicate(times, event_types)

    def delay_events(self, seconds: float, event_types: list[str] | None = None) -> None:
        """Hold every following (matching) event `seconds` before delivering it; 0 stops."""
        self.webhooks.set_delay(seconds, event_types)

    def delay_event(self, event_id: str, seconds: float) -> int:
        """Hold an already pending event; returns how many deliveries were held."""
        return self.webhooks.delay_pending(event_id, seconds)

    def redeliver(self, event_id: str) -> list[dict[str, Any]]:
        """Send an event again to its endpoints (as the Dashboard's 'Resend' does)."""
        return self.webhooks.redeliver(event_id)

    def fail_next_charge(self, code: str = "card_declined", count: int = 1) -> None:
        """The next `count` off-session charges (renewals, plan changes, retries, /pay) fail:
        card_declined, insufficient_funds, expired_card or authentication_required."""
        with self.store.lock:
            self.engine.fail_next_charge(code, count)
            self.store.save()

    def deliveries(self, event_id: str | None = None) -> list[dict[str, Any]]:
        """Every delivery (oldest first): event, type, endpoint, status (pending | succeeded |
        failed) and its attempts (status code, response body, error, duration)."""
        return self.webhooks.deliveries(event_id)

    def events(self, event_type: str | None = None, skip: Collection[str] = ()) -> list[dict[str, Any]]:
        """Every event, oldest first (optionally one type), leaving out the ids in `skip` (those
        a test already has) before copying: a caller polling for new events of a world of
        thousands copies only the new ones."""
        with self.store.lock:
            found = self.store.all("event")[::-1]
            return [
                public(e)
                for e in found
                if (event_type is None or e["type"] == event_type) and e["id"] not in skip
            ]

    def event_types(self, skip: Collection[str] = ()) -> list[str]:
        """The type of every event, oldest first, leaving out the ids in `skip`, copying nothing:
        for counting the new events of a world of thousands as it is built."""
        with self.store.lock:
            return [e["type"] for e in self.store.all("event")[::-1] if e["id"] not in skip]

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Wait until `predicate()` (called with the state lock held, after each delivery
        attempt, event and change) holds. Returns False on timeout."""
        return self.webhooks.wait(predicate, timeout)

    def wait_for_deliveries(self, timeout: float = 10.0) -> bool:
        """Wait until nothing is pending (all delivered or given up)."""
        return self.webhooks.wait(self.webhooks.idle, timeout)

    def reset(self) -> None:
        """Forget everything except the webhook endpoints."""
        with self.store.lock:
            endpoints = self.store.tables.get("webhook_endpoint", {})
            self.store.reset()
            for endpoint in endpoints.values():
                self.store.put("webhook_endpoint", endpoint)
            self.store.save()
        self._notify()

    def object(self, object_id: str) -> dict[str, Any]:
        """Any stored object as the API renders it (for assertions)."""
        with self.store.lock:
            found = self.store.find(object_id)
            if found is None:
                raise StripeError(404, f"No such object: '{object_id}'")
            return self.engine.render(*found)
