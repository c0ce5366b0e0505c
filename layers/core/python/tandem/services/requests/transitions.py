"""Accept, decline, cancel, expire, and releasing awaiting requests. Each change is ONE
transaction: the request's status (conditional on the old one), both brands' relation items,
the sender's credit (spent on accept; returned on decline, cancel or expiry within the month),
what becomes new to each brand (store/news.py) and, for an answer or an expiry, the recipient's
reply-time figures (store/brands.py BrandReplyStats), and the outcome with the pair's features
(services/match_learning.py). Every outcome goes through `transition`."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import requests as rules
from tandem.errors import Conflict, Forbidden
from tandem.observability import count_event
from tandem.services import credits, match_learning, reply_stats
from tandem.services.requests.mail import mail_after, mail_received
from tandem.services.requests.present import contact_snapshot, request_json
from tandem.services.requests.records import (
    ATTEMPTS,
    clean_text,
    get_request,
    now_ms,
    party,
    relation_update,
)
from tandem.services.viewer import Viewer
from tandem.store import boxes, news
from tandem.store.connection import Transaction, transaction
from tandem.store.errors import ConditionFailed
from tandem.store.models import Brand, BrandRelation, CreditHold
from tandem.store.requests import ConnectionRequest

EVENTS = {
    "accept": "RequestAccepted",
    "decline": "RequestDeclined",
    "cancel": "RequestCancelled",
    "expire": "RequestExpired",
}
# What each outcome makes new to the sender (its connections or declines-out).
SENDER_NEWS = {rules.ACCEPTED: news.CONNECTIONS, rules.DECLINED: news.DECLINES, rules.EXPIRED: news.DECLINES}


def _hold_is_held(req: ConnectionRequest) -> bool:
    held = CreditHold.find(req.from_account_id, req.request_id, consistent=True)
    return held is not None and held.status == "held"


def _news(tx: Transaction, req: ConnectionRequest, status: str) -> None:
    """A pending request leaves the recipient's new requests; an answer is news to the sender."""
    if req.status == rules.PENDING:
        news.remove_in(tx, int(req.to_brand_id), news.REQUESTS, [req.request_id])
    if status in SENDER_NEWS:
        news.add_in(tx, int(req.from_brand_id), SENDER_NEWS[status], [req.request_id])


def transition(
    req: ConnectionRequest,
    action: str,
    reply: str | None = None,
    *,
    now: int | None = None,
    cause: str | None = None,
) -> ConnectionRequest:
    """Apply accept / decline / cancel / expire in one transaction; 409 when the request has
    moved on. The caller has checked who may do it. `now` (epoch s): the scheduler's clock for
    an expiry (the local stack can move it); the real clock otherwise. `cause`: a cancel that is
    not the sender's own (a block by the recipient, a suspension: rules.CANCEL_CAUSES), kept on
    the request for the sender's Sent list; it starts no wait (rules.starts_wait)."""
    return transition_outcome(req, action, reply, now=now, cause=cause)[0]


def transition_outcome(
    req: ConnectionRequest,
    action: str,
    reply: str | None = None,
    *,
    now: int | None = None,
    cause: str | None = None,
) -> tuple[ConnectionRequest, bool]:
    """`transition`, and whether the sender's held credit went back to its bucket."""
    starts, status = rules.TRANSITIONS[action]
    if req.status not in starts:
        raise Conflict(rules.refusal(action, req.status))
    sender, recipient = int(req.from_brand_id), int(req.to_brand_id)
    contacts: dict[str, dict] = {}
    if action == "accept":
        both = {int(b.brand_id): b for b in Brand.find_many([sender, recipient])}
        contacts = {
            "from_contact": contact_snapshot(both[sender]) if sender in both else {},
            "to_contact": contact_snapshot(both[recipient]) if recipient in both else {},
        }
    with_credit = req.hold_bucket_id is not None
    fixed_now = now
    for _ in range(ATTEMPTS):
        now = int(time.time()) if fixed_now is None else int(fixed_now)
        at_ms = max(now_ms(), int(req.updated_at) + 1)
        returned = False
        actions = req.move_actions(status, at_ms)
        if reply is not None:
            actions.append(ConnectionRequest.reply.set(reply))
        if cause is not None:
            actions.append(ConnectionRequest.cancel_cause.set(cause))
        for name, value in contacts.items():
            actions.append(getattr(ConnectionRequest, name).set(value))
        sender_state, recipient_state = rules.RELATION_STATES[status]
        try:
            with transaction() as tx:
                tx.update(
                    ConnectionRequest.at(req.request_id),
                    actions=actions,
                    condition=ConnectionRequest.status.is_in(*starts),
                )
                match_learning.record_outcome(tx, req, status, at_ms)  # what the model learns from
                # A request its sender cancelled or the recipient declined (or let expire) makes
                # the sender wait before asking this brand again; an accepted one orders both
                # brands' connections.
                waits = rules.starts_wait(action, cause)
                wait = [BrandRelation.resend_at.set(rules.resend_at(now))] if waits else []
                since = [BrandRelation.connected_at.set(at_ms)] if status == rules.ACCEPTED else []
                relation_update(tx, sender, recipient, sender_state, req.request_id, extra=[*wait, *since])
                if req.status != rules.AWAITING:  # the recipient never knew of an awaiting one
                    relation_update(tx, recipient, sender, recipient_state, req.request_id, extra=since)
                _news(tx, req, status)
                if with_credit:
                    finish = (
                        "settle"
                        if action == "accept"
                        else credits.finish_for(now, int(req.hold_release_until))
                    )
                    if finish == "settle":
                        credits.add_settle(tx, req.from_account_id, req.request_id, req.hold_bucket_id, now)
                    else:  # a revoked bucket (refund, ended grant) takes nothing back
                        returned = "released" == credits.add_release(
                            tx, req.from_account_id, req.request_id, req.hold_bucket_id, now
                        )
                if status in reply_stats.OUTCOMES and req.status == rules.PENDING:
                    reply_stats.add_outcome(
                        tx, int(req.to_brand_id), int(req.created_at) // 1000, status, at_ms // 1000
                    )
        except ConditionFailed:
            fresh = get_request(req.request_id)
            if fresh.status not in starts:
                raise Conflict(rules.refusal(action, fresh.status)) from None
            if with_credit and not _hold_is_held(fresh):
                with_credit = False  # the month-end job spent it meanwhile: nothing to return
            req = fresh
            continue
        count_event(EVENTS[action])
        # The transaction succeeded: the item now reads as follows (no need to read it again).
        req.moved(status, at_ms)
        if reply is not None:
            req.reply = reply
        if cause is not None:
            req.cancel_cause = cause
        for name, value in contacts.items():
            setattr(req, name, value)
        return req, returned
    raise Conflict("This request is busy. Please try again.")


def _acting(request_id: str, brand_id: int, action: str, hidden: frozenset[int]) -> ConnectionRequest:
    req = get_request(request_id)
    if party(req, brand_id, hidden) != rules.ACTOR[action]:
        who = "received" if rules.ACTOR[action] == "recipient" else "sent"
        raise Forbidden(f"Only the brand that {who} this request can {action} it")
    return req


def act(viewer: Viewer, action: str, request_id: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST requests/{id}/accept|decline|cancel as the viewer's brand -> {request, credits}; a
    request with a brand hidden from it (tandem.services.visibility) is a 404 as for an unknown
    one (reads: CREDITS)."""
    brand_id = viewer.brand_id
    req = _acting(request_id, brand_id, action, viewer.hidden)
    reply = None
    if action == "decline":
        reply = clean_text((body or {}).get("reply"), "reply", required=False, limit=rules.REPLY_MAX) or None
    done = transition(req, action, reply)
    mail_after(done, action)
    info = viewer.credits(credits.buckets(viewer.account_id))
    return {"request": request_json(done, brand_id, sees_names=info["namesShown"]), "credits": info}


def release_awaiting(account_id: str) -> dict[str, int]:
    """The account's subscription was approved: its awaiting requests become pending and their
    recipients are emailed (billing calls this)."""
    released = 0
    for brand in Brand.of_account(account_id):
        waiting = [
            r
            for r in boxes.every(boxes.OUT, int(brand.brand_id), rules.SENT_BOX[rules.AWAITING])
            if r.status == rules.AWAITING
        ]
        for req in waiting:
            at_ms = max(now_ms(), int(req.updated_at) + 1)
            try:
                with transaction() as tx:
                    tx.update(
                        ConnectionRequest.at(req.request_id),
                        actions=req.move_actions(rules.PENDING, at_ms),
                        condition=ConnectionRequest.status == rules.AWAITING,
                    )
                    relation_update(
                        tx,
                        int(req.to_brand_id),
                        int(req.from_brand_id),
                        rules.RELATION_STATES[rules.PENDING][1],
                        req.request_id,
                    )
                    news.add_in(tx, int(req.to_brand_id), news.REQUESTS, [req.request_id])
            except ConditionFailed:
                continue  # cancelled meanwhile
            released += 1
            mail_received(get_request(req.request_id))
    return {"released": released}


def cancel_awaiting(account_id: str) -> dict[str, int]:
    """The account's subscription was refused: its awaiting requests are cancelled and their
    held credits returned (the recipients never knew of them). Admin console calls this."""
    cancelled = 0
    for brand in Brand.of_account(account_id):
        waiting = [
            r
            for r in boxes.every(boxes.OUT, int(brand.brand_id), rules.SENT_BOX[rules.AWAITING])
            if r.status == rules.AWAITING
        ]
        for req in waiting:
            try:
                transition(req, "cancel")
            except Conflict:
                continue  # answered or cancelled meanwhile
            cancelled += 1
    return {"cancelled": cancelled}
