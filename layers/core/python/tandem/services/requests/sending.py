"""Sending a request: at most three DynamoDB calls (a BatchGetItem of the target brand, the
sender's account, both relation items and the sender brand's Pitch Area feature (the credits
info's featureDone); the account's credit buckets; one transaction that
holds the credit, saves the request, records both relations and flags it new to the recipient).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from tandem.domain import brand_profile
from tandem.domain import credits as credit_rules
from tandem.domain import relations as rel
from tandem.domain import requests as rules
from tandem.domain.ids import parse_id
from tandem.errors import Conflict, Forbidden, NotFound, PaymentRequired, ValidationError
from tandem.observability import count_event
from tandem.services import credits, entitlements, match_learning
from tandem.services.requests.mail import mail_pitch, mail_received
from tandem.services.requests.present import request_json, summary
from tandem.services.requests.records import ATTEMPTS, clean_text, now_ms, relation_update
from tandem.store import news
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.models import Account, Brand, BrandRelation, ConnectionRequest, Match, User

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
    account: Account | None
    sender_state: str
    recipient_state: str
    resend_at: int | None  # when the sender may ask again after its last request was closed
    feature_slot: Any = None  # the sender brand's Pitch Area feature (Credits info's featureDone)
    match_score: float | None = None  # the sender's stored match with the target (None: none)


def _send_context(from_brand: Brand, to_brand_id: int) -> _SendContext:
    sender_id = int(from_brand.brand_id)
    target_key, account_key = Brand.key(to_brand_id), Account.key(from_brand.account_id)
    out_key, in_key = BrandRelation.key(sender_id, to_brand_id), BrandRelation.key(to_brand_id, sender_id)
    from tandem.services import visibility
    from tandem.store.pitch import FeatureSlot

    slot_key = FeatureSlot.key(sender_id)
    match_key = Match.key(sender_id, to_brand_id)  # the fit the sender was shown, if a match
    found = get_many(
        [
            (Brand, target_key),
            (Match, match_key),
            (Account, account_key),
            (BrandRelation, out_key),
            (BrandRelation, in_key),
            (FeatureSlot, slot_key),
            *visibility.keys(sender_id),
        ],
        consistent=True,
    )
    # A blocked (either way) or suspended brand answers as a brand that does not exist.
    if target_key not in found or to_brand_id in visibility.hidden_from(sender_id, found):
        raise NotFound(visibility.NOT_FOUND)
    out, into = found.get(out_key), found.get(in_key)
    return _SendContext(
        target=found[target_key],
        account=found.get(account_key),
        sender_state=(out.request_state if out else "") or "",
        recipient_state=(into.request_state if into else "") or "",
        resend_at=int(out.resend_at) if out is not None and out.resend_at is not None else None,
        feature_slot=found.get(slot_key),
        match_score=float(found[match_key].score) if match_key in found else None,
    )


def _refusal(ctx: _SendContext, now: int) -> str | None:
    """Why this send is refused (409): a request between the two is open or they are connected,
    or the sender's last request to this brand was closed too recently."""
    conflict = rules.conflict_for(ctx.sender_state, ctx.recipient_state)
    if conflict:
        return conflict
    target = ctx.target  # named as the sender sees it: masked unless connected (it is not)
    name = brand_profile.display_name(target.name, target.category or "", not target.hide_name)
    return rules.resend_refusal(name, ctx.resend_at, now)


def _relation_free() -> Any:
    """Condition on a relation item: no pending request and not connected."""
    return BrandRelation.request_state.does_not_exist() | ~BrandRelation.request_state.is_in(*rel.BLOCKING)


def _may_resend(now: int) -> Any:
    """Condition on the sender's relation item: no wait after a closed request, or it is over."""
    return BrandRelation.resend_at.does_not_exist() | (BrandRelation.resend_at <= now)


@dataclass(frozen=True)
class Pitch:
    """A pitch to a Pitch Area feature (tandem.services.pitch), sent as a request to its owner:
    it SPENDS its credit (no hold, nothing returned on decline), its id is fixed by the feature
    and the sender (a second pitch is a conflict), and the transaction also checks the feature
    is still live (`live_check(tx, now)`); `refusal(now)` says why after a lost race."""

    request_id: str
    feature_id: str
    title: str
    brand_id: int
    live_check: Callable[[Any, int], None]
    refusal: Callable[[int], str | None]


def _target_id(body: dict[str, Any]) -> int:
    to_brand_id = parse_id(body.get("toBrandId"))
    if to_brand_id is None:
        raise ValidationError(
            "Choose the brand to send your request to", errors={"toBrandId": "This field is required"}
        )
    return to_brand_id


def send(
    from_brand: Brand, user: User | None, body: dict[str, Any], pitch: Pitch | None = None
) -> dict[str, Any]:
    """POST requests {toBrandId, message} -> {request, credits} (201); with `pitch`, a pitch
    to that feature's brand (POST pitch/{id}/pitch)."""
    to_brand_id = pitch.brand_id if pitch else _target_id(body)
    message = clean_text(body.get("message"), "message", required=True, limit=rules.MESSAGE_MAX)
    sender_id = int(from_brand.brand_id)
    if to_brand_id == sender_id:
        raise ValidationError(rules.OWN_BRAND)
    if from_brand.suspended:
        raise Forbidden(SUSPENDED)

    ctx = _send_context(from_brand, to_brand_id)  # call 1
    if ctx.target.account_id == from_brand.account_id:
        raise ValidationError(rules.OWN_BRAND)
    conflict = _refusal(ctx, int(time.time()))
    if conflict:
        raise Conflict(conflict)

    status = rules.AWAITING if entitlements.awaits_approval(ctx.account) else rules.PENDING
    account_id = from_brand.account_id
    request_id = pitch.request_id if pitch else secrets.token_hex(8)
    cost = credit_rules.PITCH_COST if pitch else credit_rules.REQUEST_HOLD
    sender_state, recipient_state = rules.RELATION_STATES[status]
    records: dict[str, Any] = {
        **match_learning.pair_records(from_brand, ctx.target),  # the pair's features now
        "shown_percent": match_learning.shown_percent(from_brand, ctx.target, ctx.match_score),
    }
    for _ in range(ATTEMPTS):
        now = int(time.time())
        at_ms = now_ms()
        buckets = credits.buckets(account_id)  # call 2
        rights = entitlements.rights(ctx.account, buckets, now, user=user)
        if not rights.can_send:  # no plan and no credits to spend
            raise PaymentNeeded(entitlements.NEEDS_SUBSCRIPTION, "no_subscription")
        plan = credit_rules.pick(buckets, cost, now)
        if not plan:
            raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
        bucket = plan[0][0]
        held = {} if pitch else {"hold_bucket_id": bucket.bucket_id, "hold_release_until": bucket.valid_to}
        if pitch:
            held["pitch"] = {"feature_id": pitch.feature_id, "title": pitch.title}
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
            **records,
        )
        try:
            with transaction() as tx:  # call 3
                if pitch:
                    credits.add_spend(tx, account_id, plan, f"pitch:{request_id}", now)
                    pitch.live_check(tx, now)
                else:
                    credits.add_hold(tx, account_id, request_id, bucket, now)
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
            why = pitch.refusal(now) if pitch else None
            if why:
                raise Conflict(why) from None
            again = _send_context(from_brand, to_brand_id)
            conflict = _refusal(again, now)
            if conflict:
                raise Conflict(conflict) from None
            continue
        count_event("PitchSent" if pitch else "RequestSent")
        taken = {b.bucket_id: n for b, n in plan}
        left = [replace(b, available=b.available - taken.get(b.bucket_id, 0)) for b in buckets]
        if status == rules.PENDING:
            (mail_pitch if pitch else mail_received)(req)
        info = entitlements.credits_info(
            ctx.account,
            left,
            now,
            user=user,
            feature=entitlements.feature_done(ctx.feature_slot, ctx.account, now),
        )
        return {"request": request_json(req, sender_id, sees_names=info["namesShown"]), "credits": info}
    raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
