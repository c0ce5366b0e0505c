"""Test controls over HTTP, under /_test/ (JSON or form bodies, JSON answers). The same
controls are methods of FakeStripe; these let Playwright or a shell script steer the fake of a
running local stack (e.g. `curl -X POST localhost:PORT/_test/clock/advance -d days=31`)."""

from __future__ import annotations

import json
from typing import Any, Protocol

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from infra.local.fake_stripe.store import Store
from infra.local.fake_stripe.util import StripeError, as_int, decode_query, invalid


class Steerable(Protocol):
    """What the controls steer: the fake's clock, its event delivery and its state
    (`server.FakeStripe` is one; the server imports this module, never the other way)."""

    store: Store

    def now(self) -> int: ...
    def advance_clock(self, seconds: int = 0, *, days: int = 0, hours: int = 0) -> int: ...
    def pause_delivery(self) -> None: ...
    def resume_delivery(self) -> None: ...
    def reorder_pending(self, order: str | list[str] = "reverse", seed: int | None = None) -> list[str]: ...
    def duplicate_events(self, times: int = 2, event_types: list[str] | None = None) -> None: ...
    def delay_events(self, seconds: float, event_types: list[str] | None = None) -> None: ...
    def delay_event(self, event_id: str, seconds: float) -> int: ...
    def redeliver(self, event_id: str) -> list[dict[str, Any]]: ...
    def fail_next_charge(self, code: str = "card_declined", count: int = 1) -> None: ...
    def deliveries(self, event_id: str | None = None) -> list[dict[str, Any]]: ...
    def configure_webhook(
        self, url: str, secret: str | None = None, enabled_events: list[str] | None = None
    ) -> str: ...
    def reset(self) -> None: ...


class Controls:
    def __init__(self, fake: Steerable) -> None:
        self.fake = fake
        self.routes = Map(
            [
                Rule("/_test/clock", methods=["GET"], endpoint="clock"),
                Rule("/_test/clock/advance", methods=["POST"], endpoint="advance"),
                Rule("/_test/delivery/pause", methods=["POST"], endpoint="pause"),
                Rule("/_test/delivery/resume", methods=["POST"], endpoint="resume"),
                Rule("/_test/delivery/reorder", methods=["POST"], endpoint="reorder"),
                Rule("/_test/delivery/duplicate", methods=["POST"], endpoint="duplicate"),
                Rule("/_test/delivery/delay", methods=["POST"], endpoint="delay"),
                Rule("/_test/deliveries", methods=["GET"], endpoint="deliveries"),
                Rule("/_test/events/<event_id>/redeliver", methods=["POST"], endpoint="redeliver"),
                Rule("/_test/events/<event_id>/delay", methods=["POST"], endpoint="delay_event"),
                Rule("/_test/charges/fail-next", methods=["POST"], endpoint="fail_next"),
                Rule("/_test/webhook-endpoints", methods=["POST"], endpoint="add_endpoint"),
                Rule("/_test/reset", methods=["POST"], endpoint="reset"),
            ]
        )

    def handle(self, request: Request) -> Response:
        adapter = self.routes.bind_to_environ(request.environ)
        try:
            endpoint, args = adapter.match(method=request.method)
            body = self._body(request)
            result = getattr(self, endpoint)(body, **args)
            status = 200
        except (NotFound, MethodNotAllowed):
            result, status = (
                {"error": {"message": f"No test control at {request.method} {request.path}"}},
                404,
            )
        except StripeError as error:
            result, status = error.body(), error.status
        return Response(json.dumps(result, indent=2), status=status, mimetype="application/json")

    @staticmethod
    def _body(request: Request) -> dict[str, Any]:
        if request.method != "POST":
            return decode_query(request.query_string.decode())
        if request.mimetype == "application/json":
            try:
                data = json.loads(request.get_data(as_text=True) or "{}")
            except ValueError:
                raise invalid("The body is not valid JSON.") from None
            if not isinstance(data, dict):
                raise invalid("The body must be a JSON object.")
            return data
        return decode_query(request.get_data(as_text=True))

    @staticmethod
    def _types(body: dict[str, Any]) -> list[str] | None:
        types = body.get("types")
        if types in (None, "", []):
            return None
        return [types] if isinstance(types, str) else [str(t) for t in types]

    def clock(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"now": self.fake.now(), "offset": self.fake.store.clock_offset}

    def advance(self, body: dict[str, Any]) -> dict[str, Any]:
        seconds = as_int(body.get("seconds", 0), "seconds", 0)
        seconds += as_int(body.get("hours", 0), "hours", 0) * 3600
        seconds += as_int(body.get("days", 0), "days", 0) * 86400
        return {"now": self.fake.advance_clock(seconds)}

    def pause(self, body: dict[str, Any]) -> dict[str, Any]:
        self.fake.pause_delivery()
        return {"paused": True}

    def resume(self, body: dict[str, Any]) -> dict[str, Any]:
        self.fake.resume_delivery()
        return {"paused": False}

    def reorder(self, body: dict[str, Any]) -> dict[str, Any]:
        order = body.get("order", "reverse")
        seed = body.get("seed")
        return {
            "pending": self.fake.reorder_pending(order, None if seed in (None, "") else as_int(seed, "seed"))
        }

    def duplicate(self, body: dict[str, Any]) -> dict[str, Any]:
        times = as_int(body.get("times", 2), "times")
        self.fake.duplicate_events(times, self._types(body))
        return {"times": times, "types": self._types(body)}

    def delay(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            seconds = float(body.get("seconds", 0))
        except (TypeError, ValueError):
            raise invalid("seconds must be a number", "seconds") from None
        self.fake.delay_events(seconds, self._types(body))
        return {"seconds": seconds, "types": self._types(body)}

    def delay_event(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        try:
            seconds = float(body.get("seconds", 0))
        except (TypeError, ValueError):
            raise invalid("seconds must be a number", "seconds") from None
        return {"delayed": self.fake.delay_event(event_id, seconds)}

    def deliveries(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"data": self.fake.deliveries(body.get("event") or None)}

    def redeliver(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        return {"data": self.fake.redeliver(event_id)}

    def fail_next(self, body: dict[str, Any]) -> dict[str, Any]:
        code = str(body.get("code", "card_declined"))
        count = as_int(body.get("count", 1), "count", 1, 100)
        self.fake.fail_next_charge(code, count)
        return {"code": code, "count": count}

    def add_endpoint(self, body: dict[str, Any]) -> dict[str, Any]:
        url = body.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise invalid("url must be an http(s) URL", "url")
        secret = body.get("secret") or None
        endpoint_id = self.fake.configure_webhook(url, secret, self._types(body))
        return {"id": endpoint_id, "url": url}

    def reset(self, body: dict[str, Any]) -> dict[str, Any]:
        self.fake.reset()
        return {"reset": True}
