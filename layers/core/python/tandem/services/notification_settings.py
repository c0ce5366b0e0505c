"""A member's notification settings (GET / PUT notifications/user) and the option list
(GET notifications/options). The rules are tandem.domain.notifications'; this reads and stores."""

from __future__ import annotations

from typing import Any

from tandem.config import settings as config
from tandem.domain import notifications as rules
from tandem.errors import ValidationError
from tandem.store.notify import NotificationSettings, SlackConnection


def slack_active() -> bool:
    """Slack stays 'Coming Soon' in the option list until an environment turns it on."""
    return config().slack_active


def options() -> dict[str, Any]:
    return rules.options_payload(slack_active())


def stored(user_id: str) -> dict[str, Any] | None:
    item = NotificationSettings.find(user_id, consistent=True)
    return item.as_dict() if item is not None else None


def _note_timezone(user_id: str, item: NotificationSettings | None, raw: str | None) -> None:
    """Keep the member's latest time zone offset (it follows daylight saving time) for the daily
    digest; written only when it changed. A missing or bad header changes nothing."""
    if raw is None:
        return
    try:
        offset = rules.parse_timezone_offset(raw)
    except ValueError:
        return
    if item is None or item.tz_offset is None or float(item.tz_offset) != offset:
        NotificationSettings.set_tz_offset(user_id, offset)


def of_user(user_id: str, timezone_offset: str | None = None) -> dict[str, Any]:
    """The member's settings, whole: defaults for everything never changed."""
    item = NotificationSettings.find(user_id, consistent=True)
    _note_timezone(user_id, item, timezone_offset)
    return rules.normalize(item.as_dict() if item is not None else None)


def update(user_id: str, partial: object, timezone_offset: str | None = None) -> dict[str, Any]:
    """Apply a partial settings object; nothing is stored unless all of it is valid."""
    item = NotificationSettings.find(user_id, consistent=True)
    # Slack can be chosen only once it is connected (read only when the change turns it on).
    connected = not rules.turns_on(partial, rules.SLACK) or SlackConnection.find(user_id) is not None
    try:
        merged = rules.merge_settings(
            item.as_dict() if item is not None else None,
            partial,
            slack_active=slack_active(),
            slack_connected=connected,
        )
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    NotificationSettings.save_for(user_id, merged)
    _note_timezone(user_id, item, timezone_offset)
    return merged


def unsubscribe_email(user_id: str, source: str) -> dict[str, Any]:
    """One-click unsubscribe: only that source's email off."""
    try:
        changed = rules.email_off(stored(user_id), source)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    NotificationSettings.save_for(user_id, changed)
    return changed


def slack_off(user_id: str) -> None:
    """Slack is disconnected: nothing is sent there any more, so no setting says it is."""
    item = NotificationSettings.find(user_id, consistent=True)
    if item is None:
        return
    NotificationSettings.save_for(user_id, rules.platform_off(item.as_dict(), rules.SLACK))
