"""Issue reports from the developer issue box: stored for the team, newest listed first."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from tandem.config import settings
from tandem.errors import Forbidden, ValidationError
from tandem.services.viewer import Viewer
from tandem.store.models import IssueReport

EMPTY = "Please enter a description"
MAX_DESCRIPTION = 5000


def report_from(viewer: Viewer, body: dict[str, Any]) -> dict[str, str]:
    """POST issues/report: the developer issue box (admins; everyone in development), and the
    reply box of a suspended brand's owner on its dashboard notice (issue 27). Reads: USER_BRANDS."""
    user = viewer.user
    suspended = not viewer.is_admin and any(b.suspended for b in viewer.brands)
    if not viewer.is_admin and not settings().is_development and not suspended:
        raise Forbidden("Only Tandem admins can report issues here")
    return report(user.user_id, body)


def report(user_id: str, body: dict[str, Any]) -> dict[str, str]:
    description = body.get("description")
    if not isinstance(description, str) or not description.strip():
        raise ValidationError(EMPTY)
    if len(description) > MAX_DESCRIPTION:
        raise ValidationError(f"Please keep the description under {MAX_DESCRIPTION} characters")
    path = body.get("path") if isinstance(body.get("path"), str) else ""
    now = datetime.now(UTC)
    report_id = uuid.uuid4().hex
    IssueReport.new(
        report_id,
        now,
        user_id=user_id,
        description=description.strip(),
        path=path[:500],
    ).save()
    return {"message": "Issue sent"}
