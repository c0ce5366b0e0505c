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
