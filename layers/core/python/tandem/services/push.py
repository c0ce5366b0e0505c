"""Browser push for a member: the VAPID public key, storing a browser's subscription, and the
test notification (POST browser-notifications/send-test), which reports per browser."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from tandem.config import settings
from tandem.domain import notifications as rules
from tandem.errors import ValidationError
from tandem.integrations import webpush
from tandem.services import mailer, notification_settings, notify, slack_connection
from tandem.store.models import User
from tandem.store.notify import PushSubscription, SlackConnection

MAX_SUBSCRIPTIONS = 20  # browsers per member; the oldest goes when a new one comes
LIMITS = {"title": 120, "body": 500, "icon": 500, "url": 500}
NO_BROWSER_LINE = "Browser: not turned on in any browser"
SETTINGS_PATH = "/account/notifications/"


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


def _test_email(user: User | None) -> tuple[str, bool]:
    if user is None or not user.email:
        return "Email: no address", False
    context = {"first_name": user.first_name or "there", "settings_url": mailer.link(SETTINGS_PATH)}
    if notify.send_email(user, "test_notification", context, None):
        return "Email: sent", True
    return "Email: not sent, this address bounced or marked our mail as spam before", False


def _test_slack(user_id: str, message: dict[str, str]) -> tuple[str, bool] | None:
    """The member's Slack channel, where the environment has Slack and the member connected it."""
    if not notification_settings.slack_active():
        return None
    connection = SlackConnection.find(user_id)
    if connection is None:
        return None
    if not connection.channel_id:
        return "Slack: choose a channel first", False
    url = message["url"] if not message["url"].startswith("/") else mailer.link(message["url"])
    result = slack_connection.post(user_id, message["title"], message["body"], url)
    label = f"Slack #{connection.channel_name}" if connection.channel_name else "Slack"
    if result.outcome == "sent":
        return f"{label}: sent", True
    if result.outcome == "retry":
        return f"{label}: Slack is busy, try again in a minute", False
    return f"{label}: {result.reason or 'not sent'}", False


def send_test(user_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """The test notification on every channel the member has set up, with one result per channel
    ('Email: sent · Browser: delivered to 2 devices · Slack #partnerships: sent'). A 400 with the
    results when it reached no channel at all."""
    message = test_message(body)
    lines, reached = [], False
    line, ok = _test_email(User.find(user_id))
    lines.append(line)
    reached |= ok
    subscriptions = PushSubscription.of_user(user_id)
    outcomes = []
    for subscription in subscriptions:
        result = notify.send_push(subscription, message, ttl=rules.TEST_PUSH_TTL, topic=rules.TEST_TOPIC)
        outcomes.append(result.outcome)
    lines.append(_summary(outcomes) if subscriptions else NO_BROWSER_LINE)
    reached |= webpush.DELIVERED in outcomes
    slack_line = _test_slack(user_id, message)
    if slack_line is not None:
        lines.append(slack_line[0])
        reached |= slack_line[1]
    summary = " · ".join(lines)
    if not reached:
        raise ValidationError(f"Failed to send test notification. {summary}.")
    return {
        "browser": {
            "delivered": outcomes.count(webpush.DELIVERED),
            "removed": outcomes.count(webpush.GONE),
            "failed": len(outcomes) - outcomes.count(webpush.DELIVERED) - outcomes.count(webpush.GONE),
        },
        "message": summary,
    }
