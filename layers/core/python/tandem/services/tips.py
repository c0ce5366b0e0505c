"""Tips (source `tips`, at most one a week): the scheduler's `weekly-tip` job queues the collab
idea of the week (tandem.content.collab_ideas, in turn by ISO week) to every member; the notifier
sends it to those whose settings take tips (email on by default, browser if they turned it on).
A week is claimed once (TipWeek), so a job started twice sends nothing more."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from tandem.content import collab_ideas
from tandem.observability import logger
from tandem.services import mailer, notify
from tandem.store.models import User
from tandem.store.notify import TipWeek

PARAGRAPHS = 2
_MARKUP = re.compile(r"\*\*|__|`|\[([^\]]*)\]\([^)]*\)")


def _plain(paragraph: str) -> str:
    return _MARKUP.sub(lambda m: m.group(1) or "", " ".join(line.strip() for line in paragraph.splitlines()))


def week_of(now: datetime) -> str:
    year, week, _ = now.isocalendar()
    return f"{year}-W{week:02d}"


def tip_of_week(now: datetime) -> dict[str, Any]:
    """The notify() arguments for the week's tip: the idea's opening paragraphs and a link to it."""
    ideas = collab_ideas.ideas()
    year, week, _ = now.isocalendar()
    idea = ideas[(year * 53 + week) % len(ideas)]
    paragraphs = [
        _plain(p)
        for p in re.split(r"\n\s*\n", idea.content)
        if p.strip() and not p.lstrip().startswith(("#", "-", "*", "1."))
    ][:PARAGRAPHS]
    path = f"/inspiration/ideas?idea={idea.slug}"
    title = f"Collab idea of the week: {idea.title}"
    return {
        "context": {
            "title": title,
            "paragraphs": paragraphs,
            "cta_label": "Read the whole idea",
            "cta_url": mailer.link(path),
        },
        "push": {"title": title, "body": paragraphs[0][:200] if paragraphs else "", "url": path},
        "subject": week_of(now),
    }


def send_weekly(now: int | None = None) -> dict[str, Any]:
    """The weekly tip job; `now`: epoch seconds, as every scheduled job takes it."""
    now = datetime.now(UTC) if now is None else datetime.fromtimestamp(now, UTC)
    week = week_of(now)
    if not TipWeek.claim(week, int(now.timestamp())):
        return {"week": week, "queued": 0, "already": True}
    tip = tip_of_week(now)
    queued = 0
    for user in User.every():
        if not user.email:
            continue
        try:
            notify.notify(user_id=user.user_id, source="tips", template="tip", **tip)
            queued += 1
        except Exception:
            logger.exception("Could not queue a tip", extra={"user": user.user_id})
    return {"week": week, "queued": queued}
