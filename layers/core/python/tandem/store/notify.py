"""What notifications keep per member: their settings and their browsers' push subscriptions.

- a user's notification settings        pk=USER#<id>  sk=NOTIFY
- a browser's push subscription        pk=USER#<id>  sk=PUSH#<sha256(endpoint)[:32]>

The settings item holds the whole settings object (tandem.domain.notifications documents its
shape), made whole and current by `normalize` whenever it is read.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from pynamodb.attributes import MapAttribute, NumberAttribute, UnicodeAttribute

from tandem.store import keys
from tandem.store.models import Key, TandemModel, _register

NOTIFY_SK = "NOTIFY"
PUSH_PREFIX = "PUSH#"


@_register
class NotificationSettings(TandemModel):
    settings = MapAttribute(default=dict)  # raw map: {source: {platform: bool, subOptions: {...}}}
    updated_at = NumberAttribute(default=0)

    @classmethod
    def key(cls, user_id: str) -> Key:
        return keys.user_pk(user_id), NOTIFY_SK

    @classmethod
    def save_for(cls, user_id: str, settings: dict[str, Any]) -> None:
        cls(*cls.key(user_id), settings=settings, updated_at=int(time.time())).save()

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


SLACK_SK = "SLACK"
SLACK_STATE_PREFIX = "SLACKSTATE#"


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
        from pynamodb.exceptions import DeleteError

        try:
            cls.at(state_id).delete(condition=cls.user_id == user_id)
        except DeleteError:
            return False
        return True
