"""A member's notification settings (GET / PUT notifications/user) and the option list
(GET notifications/options). The rules are tandem.domain.notifications'; this reads and stores."""

from __future__ import annotations

from typing import Any

from tandem.config import settings as config
from tandem.domain import notifications as rules
from tandem.errors import ValidationError
from tandem.store.notify import NotificationSettings


def slack_active() -> bool:
    """Slack stays 'Coming Soon' in the option list until an environment turns it on."""
    return config().slack_active


def options() -> dict[str, Any]:
    return rules.options_payload(slack_active())


def stored(user_id: str) -> dict[str, Any] | None:
    item = NotificationSettings.find(user_id, consistent=True)
    return item.as_dict() if item is not None else None


def of_user(user_id: str) -> dict[str, Any]:
    """The member's settings, whole: defaults for everything never changed."""
    return rules.normalize(stored(user_id))


def update(user_id: str, partial: object) -> dict[str, Any]:
    """Apply a partial settings object; nothing is stored unless all of it is valid."""
    try:
        merged = rules.merge_settings(stored(user_id), partial, slack_active=slack_active())
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    NotificationSettings.save_for(user_id, merged)
    return merged


def unsubscribe_email(user_id: str, source: str) -> dict[str, Any]:
    """One-click unsubscribe: only that source's email off."""
    try:
        changed = rules.email_off(stored(user_id), source)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    NotificationSettings.save_for(user_id, changed)
    return changed
