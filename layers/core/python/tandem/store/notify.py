"""What notifications keep per member: their settings and their browsers' push subscriptions.

- a user's notification settings        pk=USER#<id>  sk=NOTIFY
- a browser's push subscription        pk=USER#<id>  sk=PUSH#<sha256(endpoint)[:32]>
- an account with new matches not yet in everyone's daily digest
                                        pk=DIGEST#<account>  sk=META
                                        gsi1pk=DIGEST_PENDING  gsi1sk=<account>
- an address SES reported as bouncing or complaining (never mailed again)
                                        pk=SUPPRESSED#<lower-case address>  sk=META

The settings item holds the whole settings object (tandem.domain.notifications documents its
shape), made whole and current by `normalize` whenever it is read.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from pynamodb.attributes import MapAttribute, NumberAttribute, NumberSetAttribute, UnicodeAttribute

from tandem.store import items, keys
from tandem.store.errors import ConditionFailed
from tandem.store.keys import (
    DELIVERY_PREFIX,
    DIGEST_PENDING,
    DIGEST_PREFIX,
    NOTIFY_SK,
    PAYMENT_NOTICE_PREFIX,
    PUSH_PREFIX,
    SLACK_SK,
    SLACK_STATE_PREFIX,
    SUPPRESSED_PREFIX,
    TIP_WEEK_PREFIX,
)
from tandem.store.models import Key, TandemModel, _Gsi1, _register, update_only


@_register
class NotificationSettings(TandemModel):
    settings = MapAttribute(default=dict)  # raw map: {source: {platform: bool, subOptions: {...}}}
    updated_at = NumberAttribute(default=0)
    tz_offset = NumberAttribute(null=True)  # hours, local minus UTC (X-Timezone-Offset), latest seen
    digest_sent_at = NumberAttribute(null=True)  # epoch s of the last daily digest's matches cut-off

    @classmethod
    def key(cls, user_id: str) -> Key:
        return keys.user_pk(user_id), NOTIFY_SK

    @classmethod
    def save_for(cls, user_id: str, settings: dict[str, Any]) -> None:
        """The settings, leaving the time zone and digest bookkeeping as they are."""
        update_only(cls, cls.key(user_id), [cls.settings.set(settings), cls.updated_at.set(int(time.time()))])

    @classmethod
    def set_tz_offset(cls, user_id: str, offset: float) -> None:
        update_only(cls, cls.key(user_id), [cls.tz_offset.set(offset)])

    @classmethod
    def set_digest_sent(cls, user_id: str, at: int) -> None:
        update_only(cls, cls.key(user_id), [cls.digest_sent_at.set(at)])

    @classmethod
    def of_users(cls, user_ids: list[str]) -> dict[str, NotificationSettings]:
        """The settings items of these users (one BatchGetItem per 100), by user id."""
        found = cls.batch_get([cls.key(user_id) for user_id in user_ids])
        return {item.pk[len(keys.USER_PREFIX) :]: item for item in found}

    def as_dict(self) -> dict[str, Any]:
        raw = self.settings
        return raw.as_dict() if isinstance(raw, MapAttribute) else dict(raw or {})


def endpoint_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


@_register
class PushSubscription(TandemModel):
    """One browser of a member that takes push notifications (re-subscribing replaces it)."""

    user_id = UnicodeAttribute()
    endpoint = UnicodeAttribute()
    p256dh = UnicodeAttribute()
    auth = UnicodeAttribute()
    created_at = NumberAttribute()

    @classmethod
    def key(cls, user_id: str, endpoint: str) -> Key:
        return keys.user_pk(user_id), PUSH_PREFIX + endpoint_id(endpoint)

    @classmethod
    def store(cls, user_id: str, subscription: dict[str, Any]) -> PushSubscription:
        item = cls(
            *cls.key(user_id, subscription["endpoint"]),
            user_id=user_id,
            endpoint=subscription["endpoint"],
            p256dh=subscription["keys"]["p256dh"],
            auth=subscription["keys"]["auth"],
            created_at=int(time.time()),
        )
        item.save()
        return item

    @classmethod
    def of_user(cls, user_id: str) -> list[PushSubscription]:
        return list(cls.query(keys.user_pk(user_id), cls.sk.startswith(PUSH_PREFIX)))

    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@_register
class SlackConnection(TandemModel):
    """A member's Slack workspace (the installation encrypted, tandem.integrations.slack) and the
    channel chosen for notifications."""

    installation = UnicodeAttribute()  # encrypted; never logged
    team_name = UnicodeAttribute(default="")
    channel_id = UnicodeAttribute(null=True)
    channel_name = UnicodeAttribute(null=True)
    connected_at = NumberAttribute()

    @classmethod
    def key(cls, user_id: str) -> Key:
        return keys.user_pk(user_id), SLACK_SK


@_register
class SlackOAuthState(TandemModel):
    """One Slack connect attempt's state id: the callback deletes it, so a state works once."""

    user_id = UnicodeAttribute()
    expires_at = NumberAttribute()
    ttl = NumberAttribute()

    @classmethod
    def key(cls, state_id: str) -> Key:
        return SLACK_STATE_PREFIX + state_id, keys.META

    @classmethod
    def consume(cls, state_id: str, user_id: str) -> bool:
        """Delete the state if it exists for that user; False when it was used or never made."""
        try:
            cls.at(state_id).delete(condition=cls.user_id == user_id)
        except ConditionFailed:
            return False
        return True


@_register
class DigestPending(TandemModel):
    """An account whose brands got new matches that not every user has had in a daily digest yet.
    `last_at` is the newest such run; the digest job forgets the account a day after it (every
    user's digest hour has come by then). `hours`: the UTC hours its users' digests come at, as
    the job found them after the newest run (absent until it has looked), so the other hours'
    jobs pass the account by without reading its users."""

    account_id = UnicodeAttribute()
    first_at = NumberAttribute()
    last_at = NumberAttribute()
    hours = NumberSetAttribute(null=True)
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    pending = _Gsi1()

    @classmethod
    def key(cls, account_id: str) -> Key:
        return DIGEST_PREFIX + account_id, keys.META

    @classmethod
    def mark(cls, account_id: str, at: int) -> None:
        update_only(
            cls,
            cls.key(account_id),
            [
                cls.account_id.set(account_id),
                cls.first_at.set(cls.first_at | at),
                cls.last_at.set(at),
                cls.gsi1pk.set(DIGEST_PENDING),
                cls.gsi1sk.set(account_id),
                cls.hours.remove(),  # looked up again: its users may have moved or changed
            ],
        )

    def note_hours(self, hours: set[int]) -> None:
        """Keep the UTC hours the account's digests come at, unless a run marked it since."""
        try:
            update_only(
                DigestPending,
                DigestPending.key(self.account_id),
                [DigestPending.hours.set(hours)],
                DigestPending.last_at == self.last_at,
            )
        except ConditionFailed:
            return
        self.hours = hours

    @classmethod
    def all(cls) -> list[DigestPending]:
        return list(cls.pending.query(DIGEST_PENDING))

    def forget_if_older(self, cutoff: int) -> bool:
        """Delete unless a run marked the account again after `cutoff`."""
        try:
            self.delete(condition=DigestPending.last_at <= cutoff)
        except ConditionFailed:
            return False
        return True


@_register
class SuppressedAddress(TandemModel):
    """An address SES reported as bouncing for good, or whose owner marked our mail as spam."""

    email = UnicodeAttribute()
    reason = UnicodeAttribute()  # bounce | complaint
    detail = UnicodeAttribute(default="")
    at = NumberAttribute()

    @classmethod
    def key(cls, email: str) -> Key:
        return SUPPRESSED_PREFIX + email.strip().lower(), keys.META

    @classmethod
    def add(cls, email: str, reason: str, detail: str, at: int) -> None:
        cls(*cls.key(email), email=email.strip().lower(), reason=reason, detail=detail[:500], at=at).save()

    @classmethod
    def is_suppressed(cls, email: str) -> bool:
        return cls.find(email) is not None


@_register
class PaymentNotice(TandemModel):
    """A payment whose receipt email was queued: billing syncs run many times for one payment
    (every Stripe event, redeliveries, the payment page), the receipt goes out once."""

    account_id = UnicodeAttribute()
    at = NumberAttribute()
    ttl = NumberAttribute()

    @classmethod
    def key(cls, payment_id: str) -> Key:
        return PAYMENT_NOTICE_PREFIX + payment_id, keys.META

    @classmethod
    def noticed(cls, payment_ids: list[str]) -> set[str]:
        """The payments among these whose receipt was already claimed (one BatchGetItem per
        100). Eventually consistent: a claim it misses is still refused by `claim`'s condition."""
        found = items.get_many((cls, cls.key(payment_id)) for payment_id in payment_ids)
        return {payment_id for payment_id in payment_ids if cls.key(payment_id) in found}

    @classmethod
    def claim(cls, payment_id: str, account_id: str, at: int, keep_for: int) -> bool:
        """True for the first caller only."""
        return cls(*cls.key(payment_id), account_id=account_id, at=at, ttl=at + keep_for).put_new()


@_register
class TipWeek(TandemModel):
    """A week whose tip was queued: the weekly job runs once per week, however often it is started."""

    queued = NumberAttribute(default=0)
    at = NumberAttribute()
    ttl = NumberAttribute()

    @classmethod
    def key(cls, week: str) -> Key:
        return TIP_WEEK_PREFIX + week, keys.META

    @classmethod
    def claim(cls, week: str, at: int) -> bool:
        return cls(*cls.key(week), at=at, ttl=at + 90 * 24 * 3600).put_new()


DELIVERY_KEPT = 15 * 24 * 3600  # longer than a queue message lives (SQS keeps one 14 days at most)


@_register
class NotificationDelivery(TandemModel):
    """What one notification did on one channel for one member, once that channel is settled
    (email sent or suppressed, a browser's push delivered, gone, failed or handed to its own
    retry, a Slack post): a redelivered queue message redoes only the channels with no record,
    so a push that keeps failing never sends the email again.

    pk=NOTIFIED#<notification id>  sk=<user id>#<channel> (email | slack | browser:<endpoint id>)
    """

    outcome = UnicodeAttribute()
    at = NumberAttribute()
    ttl = NumberAttribute()

    @classmethod
    def key(cls, notification_id: str, user_id: str, channel: str) -> Key:
        return DELIVERY_PREFIX + notification_id, f"{user_id}#{channel}"

    @staticmethod
    def browser_channel(endpoint: str) -> str:
        return "browser:" + endpoint_id(endpoint)

    @classmethod
    def of(cls, notification_id: str, user_id: str) -> dict[str, str]:
        """The channels settled for this member: {channel: outcome} (one Query)."""
        found = cls.query(
            DELIVERY_PREFIX + notification_id, cls.sk.startswith(f"{user_id}#"), consistent_read=True
        )
        return {item.sk.split("#", 1)[1]: item.outcome for item in found}

    @classmethod
    def record(cls, notification_id: str, user_id: str, channel: str, outcome: str) -> None:
        at = int(time.time())
        cls(
            *cls.key(notification_id, user_id, channel), outcome=outcome, at=at, ttl=at + DELIVERY_KEPT
        ).save()
