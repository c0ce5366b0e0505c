"""The admin audit log: every admin action is recorded (who, when, what) and listed newest first.

`record(actor_user_id, action, target, details)` is the one way to write an entry; the admin
console and the Pitch Area's feature approval call it after the action succeeded.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from tandem.errors import ValidationError
from tandem.observability import logger
from tandem.store.admin import AuditEntry, BadCursor
from tandem.store.models import User

PAGE = 50
MAX_DETAILS = 4000  # characters of JSON kept per entry


def _jsonable(details: dict[str, Any] | None) -> dict[str, Any]:
    data = json.loads(json.dumps(details or {}, default=str))
    if len(json.dumps(data)) > MAX_DETAILS:
        return {"truncated": json.dumps(data)[:MAX_DETAILS]}
    return data


def record(
    actor_user_id: str, action: str, target: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Write one audit entry and return it as the list shows it."""
    if not actor_user_id or not action:
        raise ValueError("An audit entry needs who and what")
    actor = User.find(actor_user_id)
    now = datetime.now(UTC)
    entry = AuditEntry.new(
        uuid.uuid4().hex,
        now,
        actor_user_id=actor_user_id,
        actor_email=actor.email if actor else "",
        action=action,
        target=str(target or ""),
        details=_jsonable(details),
    )
    entry.save()
    logger.info("Admin action", extra={"action": action, "target": entry.target, "actor": actor_user_id})
    return entry_json(entry)


def entry_json(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.entry_id,
        "at": entry.created_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "actor": {"id": entry.actor_user_id, "email": entry.actor_email},
        "action": entry.action,
        "target": entry.target,
        "details": entry.details or {},
    }


def recent(cursor: str | None = None, limit: int = PAGE) -> dict[str, Any]:
    try:
        entries, next_cursor = AuditEntry.newest(limit, cursor)
    except BadCursor:
        raise ValidationError("This list has changed. Please reload it.") from None
    return {"entries": [entry_json(e) for e in entries], "nextCursor": next_cursor}
