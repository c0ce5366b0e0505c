"""Browser push for a member: the VAPID public key, storing a browser's subscription, and the
test notification (POST browser-notifications/send-test), which reports per browser."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from tandem.config import settings
from tandem.domain import notifications as rules
from tandem.errors import ValidationError
from tandem.integrations import webpush
from tandem.services import notify
from tandem.store.notify import PushSubscription

MAX_SUBSCRIPTIONS = 20  # browsers per member; the oldest goes when a new one comes
LIMITS = {"title": 120, "body": 500, "icon": 500, "url": 500}
NO_BROWSER = "This browser isn't subscribed to notifications yet. Turn browser notifications on first."


def public_key() -> str:
    return notify.vapid_keys().public_key


def subscribe(user_id: str, raw: object) -> None:
    try:
        subscription = webpush.validate_subscription(raw, allow_loopback=settings().is_local)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    existing = sorted(PushSubscription.of_user(user_id), key=lambda s: s.created_at)
    PushSubscription.store(user_id, subscription)
    others = [s for s in existing if s.endpoint != subscription["endpoint"]]
    for old in others[: max(0, len(others) - (MAX_SUBSCRIPTIONS - 1))]:
        old.delete()


def _same_site_path(url: str) -> str:
    """A test notification opens a page of this site only."""
    if url.startswith("/") and not url.startswith("//"):
        return url
    parts, site = urlsplit(url), urlsplit(settings().site_url)
    if parts.scheme in ("http", "https") and parts.netloc == site.netloc:
        return url
    raise ValidationError("url must be a path or an address on this site.")


def test_message(body: dict[str, Any]) -> dict[str, str]:
    message: dict[str, str] = {}
    for name, limit in LIMITS.items():
        value = body.get(name, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise ValidationError(f"{name} must be text.")
        if len(value) > limit:
            raise ValidationError(f"{name} must be at most {limit} characters.")
        message[name] = value.strip()
    if not message["title"]:
        raise ValidationError("title is required.")
    message["url"] = _same_site_path(message["url"] or "/")
    return message


def _summary(outcomes: list[str]) -> str:
    delivered = outcomes.count(webpush.DELIVERED)
    parts = [f"delivered to {delivered} device{'s' if delivered != 1 else ''}"]
    if outcomes.count(webpush.GONE):
        parts.append(f"{outcomes.count(webpush.GONE)} expired subscription removed")
    if outcomes.count("retry"):
        parts.append(f"{outcomes.count('retry')} will be retried")
    if outcomes.count(webpush.FAILED):
        parts.append(f"{outcomes.count(webpush.FAILED)} failed")
    return "Browser: " + ", ".join(parts)


def send_test(user_id: str, body: dict[str, Any]) -> dict[str, Any]:
    message = test_message(body)
    subscriptions = PushSubscription.of_user(user_id)
    if not subscriptions:
        raise ValidationError(NO_BROWSER)
    outcomes = []
    for subscription in subscriptions:
        result = notify.send_push(subscription, message, ttl=rules.TEST_PUSH_TTL, topic=rules.TEST_TOPIC)
        outcomes.append(result.outcome)
    if webpush.DELIVERED not in outcomes:
        raise ValidationError("Failed to send test notification. " + _summary(outcomes) + ".")
    return {
        "browser": {
            "delivered": outcomes.count(webpush.DELIVERED),
            "removed": outcomes.count(webpush.GONE),
            "failed": len(outcomes) - outcomes.count(webpush.DELIVERED) - outcomes.count(webpush.GONE),
        },
        "message": _summary(outcomes),
    }
