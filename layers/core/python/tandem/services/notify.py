"""The one notifier path: every notification a member may get goes through `notify` (queued)
and `deliver` (the notifier function), which reads the member's settings and sends it by email
(Jinja2 templates, with RFC 8058 one-click unsubscribe headers), browser push, or both.

    notify(account_id=..., source="requests_received", template="request_received",
           context={...template variables...}, push={"title": ..., "body": ..., "url": "/requests"},
           subject=request_id)

Queue message: {"channel": "notify", "toAccount" | "toUser", "source", "subOption"?, "template",
"context", "push", "subject"?}. A push the push service asks to retry later (429 / 5xx) is put
back on the queue for that one browser ({"channel": "push-retry", ...}), so email is never sent
twice; a push that ends for good (subscription gone, refused) falls back to email when the member
takes email for that source (tandem.domain.notifications.email_fallback).
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from tandem.config import settings
from tandem.domain import notifications as rules
from tandem.domain import unsubscribe
from tandem.integrations import email_templates, slack, webpush
from tandem.integrations.aws import client, get_secret
from tandem.observability import logger
from tandem.services import email_events, mailer, notification_settings, sign_in_links, slack_connection
from tandem.store.models import User
from tandem.store.notify import NotificationDelivery, PushSubscription
from tandem.store.notify import PushSubscription as Model

VAPID_SUBJECT = "mailto:hello@tandem.app"
MAX_QUEUE_DELAY = 900  # SQS DelaySeconds upper bound
DEFAULT_RETRY_DELAY = 60
MAX_PUSH_RETRIES = 5


def notify(
    *,
    source: str,
    template: str,
    context: dict[str, Any],
    push: dict[str, str],
    account_id: str | None = None,
    user_id: str | None = None,
    sub_option: str | None = None,
    subject: str | None = None,
) -> None:
    """Queue one notification for every user of an account (brand news) or for one user."""
    if (account_id is None) == (user_id is None):
        raise ValueError("A notification goes to an account or to a user.")
    if email_templates.MESSAGES[template].source != source:
        raise ValueError(f"Template {template} is not a {source} message.")
    rules.push_topic(source, sub_option)  # checks the source and its sub-option
    message: dict[str, Any] = {
        "channel": "notify",
        "id": uuid.uuid4().hex,  # keys what was delivered on each channel (NotificationDelivery)
        "source": source,
        "template": template,
        "context": context,
        "push": push,
    }
    message["toAccount" if account_id else "toUser"] = account_id or user_id
    if sub_option:
        message["subOption"] = sub_option
    if subject:
        message["subject"] = subject
    mailer.enqueue(message)


# ---------------------------------------------------------------- delivery (the notifier)


@dataclass
class Outcome:
    """What happened to one message for one member, per channel (logged; the test reports it)."""

    email: str = ""
    browser: list[str] = field(default_factory=list)  # one outcome per browser
    slack: str = ""

    def summary(self) -> dict[str, Any]:
        return {"email": self.email, "browser": self.browser, "slack": self.slack}


def _users(message: dict[str, Any]) -> list[User]:
    if message.get("toUser"):
        user = User.find(message["toUser"])
        return [user] if user is not None else []
    return sorted(User.of_account(message["toAccount"]), key=lambda u: u.user_id)


def vapid_keys() -> webpush.VapidKeys:
    raw = json.loads(get_secret(settings().vapid_secret_name))
    if not raw.get("private_key"):
        raise RuntimeError("The VAPID secret has no private key: browser push is not set up.")
    public = raw.get("public_key") or webpush.application_server_key(raw["private_key"])
    return webpush.VapidKeys(raw["private_key"], public)


def unsubscribe_signing_key() -> bytes:
    return unsubscribe.unsubscribe_key(get_secret(settings().jwt_secret_name))


def _unsubscribe_token(user_id: str, source: str) -> str | None:
    if not unsubscribe.can_unsubscribe(source):
        return None
    return unsubscribe.sign_unsubscribe(unsubscribe_signing_key(), user_id, source, int(time.time()))


def ses_send_raw(destination: str, raw: bytes | str) -> bool:
    """Send one raw message through SES (through the configuration set whose bounces and
    complaints mark addresses), unless the address is marked: False then, nothing sent."""
    if email_events.is_suppressed(destination):
        logger.info("Email not sent: the address bounced or complained before")
        return False
    extra = (
        {"ConfigurationSetName": settings().ses_configuration_set} if settings().ses_configuration_set else {}
    )
    client("ses").send_raw_email(
        Source=settings().mail_from, Destinations=[destination], RawMessage={"Data": raw}, **extra
    )
    return True


def send_email(user: User, template: str, context: dict[str, Any], source: str | None) -> bool:
    """One templated email to one member through SES, with one-click unsubscribe headers when
    the source may be switched off. False when the address is marked as not to be mailed."""
    context = sign_in_links.with_link(user, dict(context))
    token = _unsubscribe_token(user.user_id, source) if source else None
    one_click = unsubscribe.api_url(settings().site_url, token) if token else None
    if token:  # the footer link opens a page whose button POSTs (opening a link changes nothing)
        context["unsubscribe_url"] = unsubscribe.page_url(settings().site_url, token)
    subject, text, html = email_templates.render(template, **context)
    headers = unsubscribe.list_unsubscribe_headers(one_click) if one_click else {}
    raw = email_templates.build_raw_message(
        sender=settings().mail_from, to=[user.email], subject=subject, text=text, html=html, headers=headers
    )
    return ses_send_raw(user.email, raw)


def _push_payload(push: dict[str, Any]) -> dict[str, Any]:
    url = str(push.get("url") or "/")
    if url.startswith("/"):
        url = settings().site_url + url
    return {
        "title": str(push.get("title") or "Tandem"),
        "body": str(push.get("body") or ""),
        "icon": str(push.get("icon") or "/favicon.svg"),
        "url": url,
    }


def send_push(
    subscription: PushSubscription, push: dict[str, Any], *, ttl: int, topic: str | None
) -> webpush.PushResult:
    keys = vapid_keys()
    result = webpush.send(
        subscription.info(),
        _push_payload(push),
        vapid_private_key=keys.private_key,
        vapid_subject=VAPID_SUBJECT,
        ttl=ttl,
        topic=topic,
        allow_loopback=settings().is_local,
    )
    if result.outcome == webpush.GONE:
        subscription.delete()
    return result


def _retry_push(message: dict[str, Any], user_id: str, endpoint: str, result: webpush.PushResult) -> bool:
    attempt = int(message.get("attempt", 0)) + 1
    if attempt > MAX_PUSH_RETRIES:
        return False
    retry = {
        "channel": "push-retry",
        "toUser": user_id,
        "endpoint": endpoint,
        "source": message["source"],
        "template": message["template"],
        "context": message["context"],
        "push": message["push"],
        "attempt": attempt,
    }
    for key in ("subOption", "subject", "id"):
        if message.get(key):
            retry[key] = message[key]
    delay = min(MAX_QUEUE_DELAY, result.retry_after or DEFAULT_RETRY_DELAY * attempt)
    client("sqs").send_message(
        QueueUrl=settings().notifications_queue_url, MessageBody=json.dumps(retry), DelaySeconds=delay
    )
    return True


class DeliveryFailed(Exception):
    """A channel of a notification raised: the queue redelivers the message, and only the
    channels with no delivery record are tried again."""


class _Delivery:
    """One notification to one member: the channels settled before (NotificationDelivery), and
    each channel tried on its own, its result recorded as soon as it is settled. Without a
    notification id (a message queued before ids existed) nothing is recorded or skipped."""

    def __init__(self, user: User, message: dict[str, Any], notification_id: str | None) -> None:
        self.user, self.message, self.notification_id = user, message, notification_id
        self.settled = NotificationDelivery.of(notification_id, user.user_id) if notification_id else {}
        self.errors: list[tuple[str, Exception]] = []

    def run(self, channel: str, attempt: Any) -> str | None:
        """The channel's recorded outcome, or try it now: its outcome is recorded (None when it
        raised; the error is kept and the message will be redelivered)."""
        if channel in self.settled:
            return self.settled[channel]
        try:
            outcome = attempt()
        except Exception as exc:  # any failure of one channel leaves the others alone
            logger.warning(
                "Notification channel failed; the message will be redelivered for it",
                extra={
                    "channel": channel.split(":", 1)[0],
                    "error": f"{type(exc).__name__}: {str(exc)[:200]}",
                },
            )
            self.errors.append((channel, exc))
            return None
        if self.notification_id:
            NotificationDelivery.record(self.notification_id, self.user.user_id, channel, outcome)
        self.settled[channel] = outcome
        return outcome


def _push_one(user: User, message: dict[str, Any], subscription: PushSubscription) -> str:
    source, sub_option = message["source"], message.get("subOption")
    ttl = rules.push_ttl(source, sub_option)
    topic = rules.push_topic(source, sub_option, message.get("subject"))
    result = send_push(subscription, message["push"], ttl=ttl, topic=topic)
    outcome = result.outcome
    if outcome == webpush.RETRY:
        outcome = "retry" if _retry_push(message, user.user_id, subscription.endpoint, result) else "failed"
    if outcome not in (webpush.DELIVERED, "retry"):
        logger.info("Push not delivered", extra={"outcome": outcome, "reason": result.reason})
    return outcome


def _email(delivery: _Delivery, outcome: Outcome, label: str = "sent") -> None:
    user, message = delivery.user, delivery.message

    def attempt() -> str:
        sent = send_email(user, message["template"], message["context"], message["source"])
        return label if sent else "suppressed"

    outcome.email = delivery.run("email", attempt) or ""


def deliver_to(user: User, message: dict[str, Any], notification_id: str | None = None) -> Outcome:
    """One notification to one member on each channel they take for its source. A channel that
    raises is left for the queue's redelivery (DeliveryFailed at the end); the others are done
    and recorded, so they are not repeated."""
    source, sub_option = message["source"], message.get("subOption")
    user_settings = notification_settings.of_user(user.user_id)
    channels = rules.channels_for(
        user_settings, source, sub_option, slack_active=notification_settings.slack_active()
    )
    delivery = _Delivery(user, message, notification_id)
    outcome = Outcome()
    if rules.EMAIL in channels and user.email:
        _email(delivery, outcome)
    if rules.BROWSER in channels:
        subscriptions = PushSubscription.of_user(user.user_id)
        for subscription in subscriptions:
            channel = NotificationDelivery.browser_channel(subscription.endpoint)
            result = delivery.run(channel, lambda s=subscription: _push_one(user, message, s))
            outcome.browser.append(result or "error")
        ended = not subscriptions or all(o in ("gone", "failed") for o in outcome.browser)
        if ended and not outcome.email and user.email:
            final = "failed" if subscriptions else "gone"
            if rules.email_fallback(user_settings, source, sub_option, rules.BROWSER, final):
                _email(delivery, outcome, "sent (browser fallback)")
    if rules.SLACK in channels:
        outcome.slack = delivery.run("slack", lambda: _to_slack(user, message)) or "error"
        final = {"sent": "", "retry": "", "error": ""}.get(
            outcome.slack, "disconnected" if outcome.slack == "disconnected" else "failed"
        )
        if final and not outcome.email and user.email:
            if rules.email_fallback(user_settings, source, sub_option, rules.SLACK, final):
                _email(delivery, outcome, "sent (Slack fallback)")
    if delivery.errors:
        channel, error = delivery.errors[0]
        raise DeliveryFailed(
            f"{len(delivery.errors)} channel(s) failed, first {channel.split(':', 1)[0]}"
        ) from error
    return outcome


class SlackAskedToWait(Exception):
    """Slack rate limited the post (429, Retry-After) or failed on its side: the channel is not
    recorded, so the queue's redelivery (after its visibility timeout, 180 s, longer than any
    Retry-After of chat.postMessage) tries the Slack post alone again; before issue 42 the
    outcome `retry` was recorded as settled and the post was never made."""


def _to_slack(user: User, message: dict[str, Any]) -> str:
    payload = _push_payload(message["push"])
    result = slack_connection.post(user.user_id, payload["title"], payload["body"], payload["url"])
    if result.outcome == slack.RETRY:
        raise SlackAskedToWait(f"Slack asked us to wait {result.retry_after or '?'} s: {result.error}")
    if result.outcome != "sent":
        logger.info("Slack not delivered", extra={"outcome": result.outcome, "error": result.error})
    return result.outcome


def deliver(message: dict[str, Any], notification_id: str | None = None) -> list[Outcome]:
    """A 'notify' queue message to every member it names. `notification_id` (the message's own
    `id`, else the queue message's id) keys the delivery records: when a channel fails the
    whole message is redelivered (DeliveryFailed), and every member's settled channels are
    skipped then. The queue retries it, then keeps it in the DLQ."""
    notification_id = message.get("id") or notification_id
    outcomes, failures = [], []
    for user in _users(message):
        try:
            outcome = deliver_to(user, message, notification_id)
        except DeliveryFailed as exc:
            failures.append(exc)
            continue
        logger.info(
            "Notification delivered",
            extra={"source": message["source"], "user": user.user_id, **outcome.summary()},
        )
        outcomes.append(outcome)
    if failures:
        raise failures[0]
    return outcomes


def deliver_push_retry(message: dict[str, Any], notification_id: str | None = None) -> str:
    """A push asked to wait (429 / 5xx), tried again for that one browser; its email fallback is
    recorded under the notification's id like the first delivery's email, so it goes once."""
    user = User.find(message["toUser"])
    subscription = Model.find(message["toUser"], message["endpoint"]) if user else None
    if user is None or subscription is None:
        return "gone"
    delivery = _Delivery(user, message, message.get("id") or notification_id)
    channel = (
        f"{NotificationDelivery.browser_channel(subscription.endpoint)}:retry{int(message.get('attempt', 0))}"
    )
    result = delivery.run(channel, lambda: _push_one(user, message, subscription))
    if result in ("gone", "failed") and user.email:
        user_settings = notification_settings.of_user(user.user_id)
        if rules.email_fallback(
            user_settings, message["source"], message.get("subOption"), rules.BROWSER, result
        ):
            _email(delivery, Outcome(), "sent (browser fallback)")
    if delivery.errors:
        raise DeliveryFailed("The push retry failed") from delivery.errors[0][1]
    return result or "error"
