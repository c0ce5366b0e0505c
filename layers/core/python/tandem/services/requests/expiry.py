"""The expire-requests job (scheduler, hourly): each pending request's schedule — the reminders
to its recipient on day 3 and day 10, its expiry on day 14 (the credit returned as on a
decline, through `transition`), and its sender's email after that.

Cheap: the requests with a step to come are in a sparse index by due time (gsi3 REQ-DUE,
ConnectionRequest.due_ids), so a run reads only what is due (one Query and one BatchGetItem a
page of 100) and never scans. Each step is a claim only one run can win, so two runs at once,
or a run cut short and run again, do every step once:
- a reminder: a claim item written once (put_new) before it is queued, then the next step;
- the expiry: the transition's transaction, conditional on the request still pending (an answer
  in the same second wins or loses as a whole: one final state, the credit counted once);
- the expiry email: clearing the MAIL_EXPIRED step (conditional) before it is queued.
A run cut short between a claim and its queueing loses that one message (never sends it twice).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from tandem.domain import requests as rules
from tandem.errors import Conflict
from tandem.observability import logger
from tandem.services.requests.mail import mail_expired, mail_reminder
from tandem.services.requests.transitions import transition_outcome
from tandem.store import boxes
from tandem.store.items import get_many
from tandem.store.models import Brand
from tandem.store.requests import ConnectionRequest, RequestReminder

BUDGET_S = 240.0  # a run stops taking new pages after this (the function's timeout is 300 s)


def run(now: int | None = None, budget_s: float = BUDGET_S) -> dict[str, Any]:
    """Do every step due at `now` (epoch s; the local stack's clock may be ahead)."""
    now = int(now if now is not None else time.time())
    started = time.monotonic()
    done: Counter[str] = Counter()
    for ids in ConnectionRequest.due_ids(now):
        found = get_many([(ConnectionRequest, ConnectionRequest.key(i)) for i in ids], consistent=True)
        for request_id in ids:
            req = found.get(ConnectionRequest.key(request_id))
            done[step(req, now) if req is not None else "gone"] += 1
        if time.monotonic() - started > budget_s:
            done["stopped"] = 1  # the next run goes on from what is still due
            break
    if done:
        logger.info("Request steps done", extra=dict(done))
    return dict(done)


def step(req: ConnectionRequest, now: int) -> str:
    """Do the request's due step; what happened ('reminded', 'expired', 'mailed', 'skipped')."""
    current = req.due_step
    if current is None:
        return "skipped"
    if current == rules.MAIL_EXPIRED:
        if req.advance_step(current, None) and req.status == rules.EXPIRED:
            mail_expired(req)  # a run was cut short after the expiry: the email still to send
            return "mailed"
        return "skipped"
    if req.status != rules.PENDING:  # left pending without leaving the index (not expected)
        req.advance_step(current, None)
        return "skipped"
    pending_since = int(req.expires_at) - rules.EXPIRY_DAYS * rules.DAY
    while current != rules.EXPIRE:
        following = rules.step_after(current, pending_since)
        day = rules.reminder_day(current)
        # A reminder whose next step is due too (the job did not run for days) is not sent late.
        late = following[1] <= now
        if not late and day is not None and RequestReminder.claim(req.request_id, day, now):
            mail_reminder(req, now)
            req.advance_step(current, following)
            return "reminded"
        if not req.advance_step(current, following):
            return "skipped"  # another run moved it on
        if not late:
            return "skipped"
        current = following[0]
    return _expire(req, now)


def _expire(req: ConnectionRequest, now: int) -> str:
    try:
        done, returned = transition_outcome(req, "expire", now=now)
    except Conflict:
        return "skipped"  # answered or cancelled in the meantime: it ended in that state
    if done.advance_step(rules.MAIL_EXPIRED, None):
        mail_expired(done, returned)
    return "expired"


def index_pending() -> dict[str, int]:
    """Backfill (scheduler job `index-pending-requests`, idempotent; `make deploy` runs it):
    requests pending since before the due index get their schedule, so they are reminded and
    expire like the others (one already past its 14 days expires at the next run). Reads every
    brand's open sent box: a job, never a screen."""
    indexed = 0
    for brand in Brand.every():
        for req in boxes.every(boxes.OUT, int(brand.brand_id), rules.SENT_BOX[rules.PENDING]):
            if req.status == rules.PENDING and req.due_step is None and req.index_schedule():
                indexed += 1
    return {"indexed": indexed}
