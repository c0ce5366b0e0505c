"""The collaboration-reminders job (scheduler, daily): reminders before a collaboration starts,
before its checklist items are due, and to record results after it ended (tandem.domain.
collaborations.reminders_due), through each brand's notification preferences (the Collaborations
source). One Query of the watched collaborations (the proposer's copies, sparse index), one
BatchGetItem of their brands; each reminder is claimed once, so a run cut short and run again
sends nothing twice. A collaboration with nothing more to remind of leaves the index.
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from tandem.domain import collaborations as rules
from tandem.observability import logger
from tandem.services import mailer, notify
from tandem.store import collaborations as store
from tandem.store.models import Brand


def run(now: int | None = None) -> dict[str, int]:
    at = int(now if now is not None else time.time())
    on = rules.today(0.0, at)
    watched = list(store.watched())
    ids = {int(c.a_id) for c in watched} | {int(c.b_id) for c in watched}
    brands = {int(b.brand_id): b for b in Brand.find_many(ids)} if ids else {}
    sent = left = 0
    for copy in watched:
        start, end = date.fromisoformat(copy.start), date.fromisoformat(copy.end)
        if copy.status != rules.AGREED or on > rules.watch_ends(end) or (copy.results_a and copy.results_b):
            store.unwatch(copy)
            left += 1
            continue
        recorded = {"a": bool(copy.results_a), "b": bool(copy.results_b)}
        checklist = [dict(i.as_dict() if hasattr(i, "as_dict") else i) for i in (copy.checklist or [])]
        for reminder in rules.reminders_due(start, end, checklist, recorded, on):
            if not store.claim_reminder(copy.collab_id, reminder.key, at):
                continue  # sent by an earlier run
            for role in reminder.roles:
                brand = brands.get(int(copy.a_id if role == "a" else copy.b_id))
                other = brands.get(int(copy.b_id if role == "a" else copy.a_id))
                if brand is not None and other is not None:
                    _remind(brand, other, copy.collab_id, copy.title, reminder.text)
                    sent += 1
    return {"watched": len(watched), "sent": sent, "left": left}


def _remind(brand: Brand, other: Brand, collab_id: str, title: str, text: str) -> None:
    path = f"/collaborations/{collab_id}"
    context: dict[str, Any] = {
        "brand": brand.name,
        "other_brand": other.name,
        "title": title,
        "reminder": text,
        "collab_url": mailer.link(path),
    }
    try:
        notify.notify(
            account_id=brand.account_id,
            source="collaborations",
            template="collaboration_reminder",
            context=context,
            push={"title": f"Reminder: {title}", "body": text, "url": path},
            subject=collab_id,
        )
    except Exception:  # one member's reminder never stops the others'
        logger.exception("Could not queue a collaboration reminder")
