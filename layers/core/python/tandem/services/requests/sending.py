"""Sending a request, and the credit-charging send that a pitch shares (`deliver`).

At most three DynamoDB calls after the door's read (which brought the sender's account, its
Pitch Area feature and who is hidden from it: tandem.services.viewer.CREDITS): a BatchGetItem
of the target brand, both relation items and the sender's stored match; the account's credit
buckets; one transaction that holds (or spends) the credit, saves the request, records both
relations and flags it new to the recipient.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tandem.domain import brand_profile
from tandem.domain import credits as credit_rules
from tandem.domain import relations as rel
from tandem.domain import requests as rules
from tandem.domain.identity import INTRODUCED, identity
from tandem.domain.ids import parse_id
from tandem.errors import Conflict, Forbidden, NotFound, PaymentRequired, ValidationError
from tandem.observability import count_event
from tandem.services import credits, entitlements, match_learning, visibility
from tandem.services.requests.mail import mail_received
from tandem.services.requests.present import request_json, summary
from tandem.services.requests.records import ATTEMPTS, clean_text, now_ms, relation_update
from tandem.services.viewer import Viewer
from tandem.store import news
from tandem.store.base import Condition
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.matches import Match
from tandem.store.models import Brand, BrandRelation, Key, TandemModel
from tandem.store.requests import ConnectionRequest

SUSPENDED = (
    "Your brand is suspended, so it can't send requests or pitches. "
    "Please contact us from your dashboard if you think this is a mistake."
)


class PaymentNeeded(PaymentRequired):
    """402 with a machine code the app opens the subscription overlay with."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, code=code)


@dataclass(frozen=True)
class _SendContext:
    target: Brand
    sender_state: str
    recipient_state: str
    resend_at: int | None  # when the sender may ask again after its last request was closed
    match_score: float | None = None  # the sender's stored match with the target (None: none)
    match_fit: str | None = None  # its fit label, when that went by the target's chance of accepting


def _send_context(viewer: Viewer, to_brand_id: int) -> _SendContext:
    sender_id = viewer.brand_id
    target_key = Brand.key(to_brand_id)
    out_key, in_key = BrandRelation.key(sender_id, to_brand_id), BrandRelation.key(to_brand_id, sender_id)
    match_key = Match.key(sender_id, to_brand_id)  # the fit the sender was shown, if a match
    found = get_many(
        [(Brand, target_key), (Match, match_key), (BrandRelation, out_key), (BrandRelation, in_key)],
        consistent=True,
    )
    # A blocked (either way) or suspended brand answers as a brand that does not exist.
    if target_key not in found or to_brand_id in viewer.hidden:
        raise NotFound(visibility.NOT_FOUND)
    out, into = found.get(out_key), found.get(in_key)
    return _SendContext(
        target=found[target_key],
        sender_state=(out.request_state if out else "") or "",
        recipient_state=(into.request_state if into else "") or "",
        resend_at=int(out.resend_at) if out is not None and out.resend_at is not None else None,
        match_score=float(found[match_key].score) if match_key in found else None,
        match_fit=_chance_fit(found.get(match_key)),
    )


def _chance_fit(match: Match | None) -> str | None:
    """The fit label the sender was shown on its match when it went by the chance of acceptance
    (a run with a model), else None."""
    if match is None or not match.fit_by_chance or not match.fit:
        return None
    return str(match.fit)


def _refusal(ctx: _SendContext, now: int) -> str | None:
    """Why this send is refused (409): a request between the two is open or they are connected,
    or the sender's last request to this brand was closed too recently."""
    # named as in the request it answered (a brand that hides its name stays masked)
    name = identity(None, ctx.target, INTRODUCED).name
    conflict = rules.conflict_for(ctx.sender_state, ctx.recipient_state)
    return conflict or rules.resend_refusal(name, ctx.resend_at, now)


def _relation_free() -> Condition:
    """Condition on a relation item: no pending request and not connected."""
    return BrandRelation.request_state.does_not_exist() | ~BrandRelation.request_state.is_in(*rel.BLOCKING)


def _may_resend(now: int) -> Condition:
    """Condition on the sender's relation item: no wait after a closed request, or it is over."""
    return BrandRelation.resend_at.does_not_exist() | (BrandRelation.resend_at <= now)


@dataclass(frozen=True)
class Charge:
    """What a send costs and how: a connection request HOLDS its credit (returned on decline or
    cancel within the month); a pitch SPENDS it under `spend_op`. `checks` are (model, key,
    condition at that time) items the same transaction checks (a pitch: its feature is still
    live), `fields` go onto the saved request and `mail` tells the recipient."""

    cost: int
    mail: Callable[[ConnectionRequest], None]
    spend_op: str | None = None
    checks: tuple[tuple[type[TandemModel], Key, Any], ...] = ()
    fields: dict[str, Any] = field(default_factory=dict)


HOLD = Charge(cost=credit_rules.REQUEST_HOLD, mail=mail_received)


def _target_id(body: dict[str, Any]) -> int:
    to_brand_id = parse_id(body.get("toBrandId"))
    if to_brand_id is None:
        raise ValidationError(
            "Choose the brand to send your request to", errors={"toBrandId": "This field is required"}
        )
    return to_brand_id


def send(viewer: Viewer, body: dict[str, Any]) -> dict[str, Any]:
    """POST requests {toBrandId, message} -> {request, credits} (201); holds 1 credit
    (reads: tandem.services.viewer.CREDITS)."""
    to_brand_id = _target_id(body)
    message = clean_text(body.get("message"), "message", required=True, limit=rules.MESSAGE_MAX)
    sent = deliver(viewer, to_brand_id, message, secrets.token_hex(8), HOLD)
    count_event("RequestSent")
    return sent


def deliver(
    viewer: Viewer,
    to_brand_id: int,
    message: str,
    request_id: str,
    charge: Charge,
    lost_race: Callable[[int], str | None] | None = None,
) -> dict[str, Any]:
    """The shared send: checks the pair may open a request, charges `charge` from the viewer's
    credits and saves the request in one transaction -> {request, credits}. After a lost race,
    `lost_race(now)` may name the refusal (409) before the pair is looked at again."""
    from_brand = viewer.brand
    sender_id = viewer.brand_id
    if from_brand is None or to_brand_id == sender_id:
        raise ValidationError(rules.OWN_BRAND)
    if from_brand.suspended:
        raise Forbidden(SUSPENDED)

    ctx = _send_context(viewer, to_brand_id)  # call 1
    if ctx.target.account_id == from_brand.account_id:
        raise ValidationError(rules.OWN_BRAND)
    conflict = _refusal(ctx, int(time.time()))
    if conflict:
        raise Conflict(conflict)

    account_id = from_brand.account_id
    records = match_learning.send_records(
        from_brand, ctx.target, ctx.match_score, ctx.match_fit
    )  # the pair now
    for _ in range(ATTEMPTS):
        now = int(time.time())
        at_ms = now_ms()
        buckets = credits.buckets(account_id)  # call 2
        rights = viewer.rights(buckets, now)
        if not rights.can_send:  # no plan and no credits to spend
            raise PaymentNeeded(entitlements.NEEDS_SUBSCRIPTION, "no_subscription")
        # a plan waiting for approval holds the request until it is approved
        status = rules.AWAITING if rights.awaits_approval else rules.PENDING
        sender_state, recipient_state = rules.RELATION_STATES[status]
        plan = credit_rules.pick(buckets, charge.cost, now)
        if not plan:
            raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
        bucket = plan[0][0]
        held = (
            {}
            if charge.spend_op
            else {"hold_bucket_id": bucket.bucket_id, "hold_release_until": bucket.valid_to}
        )
        req = ConnectionRequest.new(
            request_id,
            from_brand=summary(from_brand),
            to_brand=summary(ctx.target),
            from_account_id=account_id,
            to_account_id=ctx.target.account_id,
            message=message,
            status=status,
            at_ms=at_ms,
            **held,
            **charge.fields,
            **records,
        )
        try:
            with transaction() as tx:  # call 3
                if charge.spend_op:
                    credits.add_spend(tx, account_id, plan, charge.spend_op, now)
                else:
                    credits.add_hold(tx, account_id, request_id, bucket, now)
                for model, key, condition in charge.checks:
                    tx.condition_check(model, *key, condition=condition(now))
                tx.save(req, condition=ConnectionRequest.sk.does_not_exist())
                relation_update(
                    tx, sender_id, to_brand_id, sender_state, request_id, _relation_free() & _may_resend(now)
                )
                if recipient_state:
                    relation_update(tx, to_brand_id, sender_id, recipient_state, request_id, _relation_free())
                if status == rules.PENDING:
                    news.add_in(tx, to_brand_id, news.REQUESTS, [request_id])
        except ConditionFailed:
            # Either another request took that credit first (look again), or a request
            # between these two brands was made or closed meanwhile (refuse).
            why = lost_race(now) if lost_race is not None else None
            if why:
                raise Conflict(why) from None
            conflict = _refusal(_send_context(viewer, to_brand_id), now)
            if conflict:
                raise Conflict(conflict) from None
            continue
        taken = {b.bucket_id: n for b, n in plan}
        left = [replace(b, available=b.available - taken.get(b.bucket_id, 0)) for b in buckets]
        if status == rules.PENDING:
            charge.mail(req)
        info = viewer.credits(left, now)
        return {
            "request": request_json(req, sender_id, sees_names=info["namesShown"]),
            "credits": info,
            # a sender that hides its name is masked to the recipient, message included
            "notice": brand_profile.name_notice(viewer.brand, (message,), brand_profile.NAMES_BRAND_MESSAGE),
        }
    raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
