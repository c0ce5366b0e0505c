"""Webhook delivery: every event goes to each enabled endpoint whose `enabled_events` match,
POSTed as Stripe posts it (pretty JSON, `Stripe-Signature` from
stripe.WebhookSignature.generate_signature_header with the endpoint's secret, re-signed on each
attempt), on one background thread so that no page or API call waits for the app.

A non-2xx answer, a redirect, a timeout or a refused connection is retried after the next
delay in `retry_delays` (seconds, bounded); after the last one the delivery is 'failed'.
Tests steer delivery: pause/resume, reorder what is pending, duplicate or delay what comes,
redeliver an event; every attempt and its answer is kept (`deliveries`)."""

from __future__ import annotations

import fnmatch
import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import requests
import stripe

from infra.local.fake_stripe.engine import API_VERSION
from infra.local.fake_stripe.store import Store, public
from infra.local.fake_stripe.util import invalid, new_id

DEFAULT_RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
RESPONSE_KEEP = 2000  # characters of each response body kept for inspection
USER_AGENT = "Stripe/1.0 (+https://stripe.com/docs/webhooks)"
logger = logging.getLogger(__name__)


class Dispatcher:
    def __init__(
        self,
        store: Store,
        retry_delays: Iterable[float] = DEFAULT_RETRY_DELAYS,
        timeout: float = 10.0,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.retry_delays = tuple(retry_delays)
        self.timeout = timeout
        self.on_change = on_change or (lambda: None)
        self.changed = threading.Condition(store.lock)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._session = requests.Session()

    # --- endpoints ---------------------------------------------------------------------------

    def add_endpoint(
        self,
        url: str,
        *,
        secret: str | None = None,
        enabled_events: list[str] | None = None,
        api_version: str | None = None,
        description: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        with self.store.lock:
            endpoint = {
                "id": new_id("we_"),
                "object": "webhook_endpoint",
                "api_version": api_version or API_VERSION,
                "application": None,
                "created": self.store.now(),
                "description": description,
                "enabled_events": enabled_events or ["*"],
                "livemode": False,
                "metadata": metadata or {},
                "status": "enabled",
                "url": url,
                "_secret": secret or "whsec_" + secrets.token_hex(16),
            }
            self.store.put("webhook_endpoint", endpoint)
            self.store.save()
            return endpoint

    def remove_endpoint(self, endpoint_id: str) -> None:
        with self.store.lock:
            self.store.tables.get("webhook_endpoint", {}).pop(endpoint_id, None)
            self.store.kind_of.pop(endpoint_id, None)
            for delivery_id in list(self.store.queue):
                if self.store.deliveries[delivery_id]["endpoint"] == endpoint_id:
                    self._finish(delivery_id, "failed")
            self.store.save()

    def _endpoints_for(self, event_type: str) -> list[dict[str, Any]]:
        return [
            e
            for e in self.store.all("webhook_endpoint")[::-1]
            if e["status"] == "enabled"
            and any(fnmatch.fnmatchcase(event_type, p) for p in e["enabled_events"])
        ]

    # --- queueing (called with the lock held, from Engine.emit) ----------------------------------

    def enqueue(self, event: dict[str, Any]) -> None:
        endpoints = self._endpoints_for(event["type"])
        event["pending_webhooks"] = len(endpoints)
        copies = 1
        duplicate = self.store.rules.get("duplicate")
        if duplicate and _rule_matches(duplicate, event["type"]):
            copies = duplicate["times"]
        delay = self.store.rules.get("delay")
        hold = delay["seconds"] if delay and _rule_matches(delay, event["type"]) else 0.0
        for endpoint in endpoints:
            for _ in range(copies):
                self._new_delivery(event["id"], endpoint["id"], hold)
        self.changed.notify_all()

    def _new_delivery(self, event_id: str, endpoint_id: str, hold: float = 0.0) -> dict[str, Any]:
        delivery = {
            "id": new_id("wd_"),
            "event": event_id,
            "endpoint": endpoint_id,
            "status": "pending",
            "attempts": [],
            "next_attempt_at": time.time() + hold,
            "in_flight": False,
            "_seq": self.store.next_seq(),
        }
        self.store.deliveries[delivery["id"]] = delivery
        self.store.queue.append(delivery["id"])
        return delivery

    def _finish(self, delivery_id: str, status: str) -> None:
        delivery = self.store.deliveries[delivery_id]
        delivery["status"] = status
        delivery["next_attempt_at"] = None
        if delivery_id in self.store.queue:
            self.store.queue.remove(delivery_id)
        event = self.store.get("event", delivery["event"])
        if event is not None:
            pending = {
                self.store.deliveries[d]["endpoint"]
                for d in self.store.queue
                if self.store.deliveries[d]["event"] == event["id"]
            }
            event["pending_webhooks"] = len(pending)

    # --- the worker ----------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread and self._thread.is_alive():
            return
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="fake-stripe-webhooks", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        with self.changed:
            self._stopping = True
            self.changed.notify_all()
        if self._thread:
            self._thread.join(timeout)
            self._thread = None
        self._session.close()

    def _next(self) -> tuple[dict[str, Any], float]:
        """The first due delivery in queue order, or None and how long to wait."""
        if self.store.delivery_paused:
            return {}, 3600.0
        now = time.time()
        wait = 3600.0
        for delivery_id in self.store.queue:
            delivery = self.store.deliveries[delivery_id]
            if delivery["in_flight"]:
                continue
            if delivery["next_attempt_at"] <= now:
                return delivery, 0.0
            wait = min(wait, delivery["next_attempt_at"] - now)
        return {}, wait

    def _run(self) -> None:
        while not self._stopping:
            try:
                self._deliver_next()
            except Exception:  # keep delivering: one bad delivery must not stop the others
                logger.exception("fake Stripe: webhook delivery failed unexpectedly")

    def _deliver_next(self) -> None:
        with self.changed:
            delivery, wait = self._next()
            while not delivery and not self._stopping:
                self.changed.wait(timeout=min(wait, 1.0))
                delivery, wait = self._next()
            if self._stopping:
                return
            event = self.store.get("event", delivery["event"])
            endpoint = self.store.get("webhook_endpoint", delivery["endpoint"])
            if event is None or endpoint is None:
                self._finish(delivery["id"], "failed")
                return
            delivery["in_flight"] = True
            payload = json.dumps(public(event), indent=2)
            url, secret = endpoint["url"], endpoint["_secret"]
        try:
            attempt = self._post(url, payload, secret)
        except Exception as error:  # counted as a failed attempt, retried like any other
            attempt = {
                "at": time.time(),
                "status": None,
                "response": None,
                "ok": False,
                "duration_ms": 0.0,
                "error": f"{type(error).__name__}: {error}"[:RESPONSE_KEEP],
            }
        with self.changed:
            delivery["in_flight"] = False
            delivery["attempts"].append(attempt)
            if delivery["status"] != "pending" or self.store.deliveries.get(delivery["id"]) is not delivery:
                pass  # finished meanwhile (endpoint removed) or forgotten (reset)
            elif attempt["ok"]:
                self._finish(delivery["id"], "succeeded")
            elif len(delivery["attempts"]) > len(self.retry_delays):
                self._finish(delivery["id"], "failed")
            else:
                delivery["next_attempt_at"] = time.time() + self.retry_delays[len(delivery["attempts"]) - 1]
            self.store.save()
            self.changed.notify_all()
        self.on_change()

    def _post(self, url: str, payload: str, secret: str) -> dict[str, Any]:
        header = stripe.WebhookSignature.generate_signature_header(payload, secret)
        started = time.monotonic()
        attempt: dict[str, Any] = {"at": time.time(), "status": None, "response": None, "error": None}
        try:
            response = self._session.post(
                url,
                data=payload.encode("utf-8"),
                headers={
                    "Content-Type": "application/json; charset=utf-8",
                    "Stripe-Signature": header,
                    "User-Agent": USER_AGENT,
                    "Connection": "close",  # each attempt on its own connection, as Stripe's are
                },
                timeout=self.timeout,
                allow_redirects=False,
            )
            attempt["status"] = response.status_code
            attempt["response"] = response.text[:RESPONSE_KEEP]
            attempt["ok"] = 200 <= response.status_code < 300
        except requests.RequestException as error:
            attempt["error"] = f"{type(error).__name__}: {error}"[:RESPONSE_KEEP]
            attempt["ok"] = False
        attempt["duration_ms"] = round((time.monotonic() - started) * 1000, 1)
        return attempt

    # --- test controls (each takes the lock) -----------------------------------------------------

    def pause(self) -> None:
        with self.changed:
            self.store.delivery_paused = True
            self.store.save()

    def resume(self) -> None:
        with self.changed:
            self.store.delivery_paused = False
            self.store.save()
            self.changed.notify_all()

    def reorder(self, order: str | list[str] = "reverse", seed: int | None = None) -> list[str]:
        """Reorder the pending deliveries: 'reverse', 'shuffle' (with `seed`), or a list of event
        ids giving the new order (events not named keep their place after those named).
        Returns the pending event ids in the new order."""
        with self.changed:
            queue = list(self.store.queue)
            if order == "reverse":
                queue.reverse()
            elif order == "shuffle":
                random.Random(seed).shuffle(queue)
            elif isinstance(order, list):
                rank = {event_id: index for index, event_id in enumerate(order)}
                unknown = set(order) - {self.store.deliveries[d]["event"] for d in queue}
                if unknown:
                    raise invalid(f"Not pending: {sorted(unknown)}", "order")
                queue.sort(key=lambda d: rank.get(self.store.deliveries[d]["event"], len(rank)))
            else:
                raise invalid("order must be 'reverse', 'shuffle' or a list of event ids", "order")
            self.store.queue = queue
            self.store.save()
            self.changed.notify_all()
            return [self.store.deliveries[d]["event"] for d in queue]

    def set_duplicate(self, times: int, event_types: list[str] | None = None) -> None:
        """Deliver each following event (matching `event_types` patterns, e.g. 'invoice.*')
        `times` times; times=1 turns it off."""
        if times < 1 or times > 10:
            raise invalid("times must be between 1 and 10", "times")
        with self.changed:
            self.store.rules["duplicate"] = None if times == 1 else {"times": times, "types": event_types}
            self.store.save()

    def set_delay(self, seconds: float, event_types: list[str] | None = None) -> None:
        """Hold each following event (matching `event_types`) for `seconds` before its first
        attempt; 0 turns it off."""
        if seconds < 0 or seconds > 3600:
            raise invalid("seconds must be between 0 and 3600", "seconds")
        with self.changed:
            self.store.rules["delay"] = {"seconds": seconds, "types": event_types} if seconds else None
            self.store.save()

    def delay_pending(self, event_id: str, seconds: float) -> int:
        with self.changed:
            count = 0
            for delivery_id in self.store.queue:
                delivery = self.store.deliveries[delivery_id]
                if delivery["event"] == event_id:
                    delivery["next_attempt_at"] = time.time() + seconds
                    count += 1
            self.store.save()
            self.changed.notify_all()
            return count

    def redeliver(self, event_id: str, endpoint_id: str | None = None) -> list[dict[str, Any]]:
        with self.changed:
            event = self.store.get("event", event_id)
            if event is None:
                raise invalid(f"No such event: '{event_id}'", "event", "resource_missing")
            endpoints = [
                e for e in self._endpoints_for(event["type"]) if endpoint_id is None or e["id"] == endpoint_id
            ]
            created = [self._new_delivery(event_id, e["id"]) for e in endpoints]
            self.store.save()
            self.changed.notify_all()
            return [dict(d) for d in created]

    def deliveries(self, event_id: str | None = None) -> list[dict[str, Any]]:
        with self.changed:
            found = sorted(self.store.deliveries.values(), key=lambda d: d["_seq"])
            return [
                {**public(d), "type": (self.store.get("event", d["event"]) or {}).get("type")}
                for d in found
                if event_id is None or d["event"] == event_id
            ]

    def wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait (without sleeping blindly) until `predicate()` holds; it is called with the lock
        held after every delivery attempt and every new event."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self.changed.wait(timeout=min(remaining, 0.5))
            return True

    def idle(self) -> bool:
        return not self.store.queue


def _rule_matches(rule: dict[str, Any], event_type: str) -> bool:
    patterns = rule.get("types")
    return not patterns or any(fnmatch.fnmatchcase(event_type, p) for p in patterns)
