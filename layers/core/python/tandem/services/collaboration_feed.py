"""A brand's private calendar feed of its collaborations (issue 41): an iCalendar file (made with
the icalendar library) at a secret URL a member subscribes to from Google or Apple Calendar.

The secret (32 random bytes, URL-safe) is shown once, when made; only its SHA-256 is kept, so
the URL cannot be read back from the table. Making a new one revokes the old at once, and the
member can revoke it without a new one. The feed lists the brand's collaborations that are not
declined or cancelled (all-day, start to end) and their open checklist items with a due date.
Reading it: one GetItem (the secret's brand), one Query (its collaborations), one BatchGetItem
(the partners).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from datetime import date, timedelta
from typing import Any

from icalendar import Calendar, Event

from tandem.domain import collaborations as rules
from tandem.errors import NotFound
from tandem.services import mailer
from tandem.services.viewer import Viewer
from tandem.store import collaborations as store
from tandem.store.collaborations import CalendarFeed, CalendarFeedSecret
from tandem.store.models import Brand

FEED_PATH = "/api/calendar/"
NOT_FOUND = "Calendar feed not found"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def feed_url(secret: str) -> str:
    return mailer.link(f"{FEED_PATH}{secret}.ics")


def state(viewer: Viewer) -> dict[str, Any]:
    """GET collaborations/calendar-feed: whether the brand has a feed (its URL is not kept)."""
    feed = CalendarFeed.find(viewer.brand_id, consistent=True)
    return {"feed": {"active": feed is not None, "createdAt": int(feed.created_at) if feed else None}}


def renew(viewer: Viewer) -> dict[str, Any]:
    """POST collaborations/calendar-feed: a new secret URL, shown once; the old one stops."""
    feed = CalendarFeed.find(viewer.brand_id, consistent=True)
    secret = secrets.token_urlsafe(32)
    at = int(time.time())
    store.replace_feed(viewer.brand_id, _hash(secret), at, feed.secret_hash if feed else None)
    return {"feed": {"active": True, "createdAt": at, "url": feed_url(secret)}}


def revoke(viewer: Viewer) -> dict[str, Any]:
    """DELETE collaborations/calendar-feed: the URL stops working."""
    feed = CalendarFeed.find(viewer.brand_id, consistent=True)
    if feed is not None:
        store.revoke_feed(viewer.brand_id, feed.secret_hash)
    return {"feed": {"active": False, "createdAt": None}}


def ics(raw: str) -> str:
    """GET calendar/{secret}.ics (public: the secret is the credential): the feed, or a 404 as for
    any unknown URL."""
    secret = raw.removesuffix(".ics")
    if not 20 <= len(secret) <= 100:
        raise NotFound(NOT_FOUND)
    found = CalendarFeedSecret.find(_hash(secret), consistent=True)
    if found is None:
        raise NotFound(NOT_FOUND)
    brand_id = int(found.brand_id)
    copies = [c for c in store.of_brand(brand_id) if c.status in rules.OPEN]
    partners = (
        {int(b.brand_id): b for b in Brand.find_many({int(c.other_id) for c in copies})} if copies else {}
    )
    cal = Calendar()
    cal.add("prodid", "-//Tandem//Collaborations//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "Tandem collaborations")
    stamp = date.today()
    for copy in copies:
        partner = partners.get(int(copy.other_id))
        name = partner.name if partner is not None else "a brand"
        start, end = date.fromisoformat(copy.start), date.fromisoformat(copy.end)
        link = mailer.link(f"/collaborations/{copy.collab_id}")
        event = Event()
        event.add("uid", f"{copy.collab_id}@tandem")
        event.add("dtstamp", stamp)
        event.add("summary", f"{copy.title} (with {name})")
        event.add("dtstart", start)
        event.add("dtend", end + timedelta(days=1))  # all-day: DTEND is the day after
        event.add("description", f"{copy.format} · {rules.PHASE_LABELS[copy.status]}\n{link}")
        event.add("url", link)
        cal.add_component(event)
        for item in copy.checklist or []:
            item = dict(item.as_dict() if hasattr(item, "as_dict") else item)
            due = rules.parse_date(item.get("due"))
            if due is None or item.get("done_at"):
                continue
            task = Event()
            task.add("uid", f"{copy.collab_id}-{item.get('id')}@tandem")
            task.add("dtstamp", stamp)
            task.add("summary", f"Due: {item.get('text')} ({copy.title})")
            task.add("dtstart", due)
            task.add("dtend", due + timedelta(days=1))
            task.add("url", link)
            cal.add_component(task)
    return cal.to_ical().decode()
