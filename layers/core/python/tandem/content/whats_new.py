"""What's new (the dashboard's `whatsNew`): short notes the team writes in `data/whats_new.toml`,
shown newest first. An entry dated after today is hidden until its day."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from tandem.content import ContentError, check_keys, load_toml, require

TITLE_MAX = 80
BODY_MAX = 280
_LINK = re.compile(r"^/[A-Za-z0-9/_?=&.-]*$")


@dataclass(frozen=True)
class Entry:
    date: date
    title: str
    body: str
    link: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As the dashboard lists it (`text` is the body: the web's WhatsNewItem)."""
        return {"date": self.date.isoformat(), "title": self.title, "text": self.body, "link": self.link}


def _load_entry(raw: Any, number: int) -> Entry:
    where = f"whats_new.toml entry {number}"
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: must be a table")
    check_keys(raw, {"date", "title", "body", "link"}, where)
    when = require(raw, "date", date, where)
    title = require(raw, "title", str, where).strip()
    body = " ".join(require(raw, "body", str, where).split())
    if len(title) > TITLE_MAX or len(body) > BODY_MAX:
        raise ContentError(f"{where}: keep the title to {TITLE_MAX} and the body to {BODY_MAX} characters")
    link = raw.get("link")
    if link is not None and not (isinstance(link, str) and _LINK.match(link)):
        raise ContentError(f"{where}: link must be a path in the app, starting with '/'")
    return Entry(when, title, body, link)


@cache
def entries() -> tuple[Entry, ...]:
    """Every entry, newest first (entries of the same day keep the file's order)."""
    raw = require(load_toml("whats_new.toml"), "entries", list, "whats_new.toml")
    loaded = [_load_entry(entry, number) for number, entry in enumerate(raw, start=1)]
    titles = [e.title for e in loaded]
    if len(set(titles)) != len(titles):
        raise ContentError("whats_new.toml: two entries share a title")
    return tuple(sorted(loaded, key=lambda e: e.date, reverse=True))


def latest(today: date, limit: int = 5) -> list[dict[str, Any]]:
    """The dashboard's whatsNew: the newest `limit` entries dated today or earlier."""
    return [e.to_dict() for e in entries() if e.date <= today][:limit]
