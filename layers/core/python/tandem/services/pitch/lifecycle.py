"""A feature's life as its owner lives it: created (paid with credits, or by the feature
product's checkout), ended early or withdrawn, expired at its term."""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from tandem.domain import brand_profile
from tandem.domain import credits as credit_rules
from tandem.domain import pitch as rules
from tandem.domain.identity import Looker
from tandem.errors import Conflict, Forbidden, NotFound
from tandem.observability import count_event
from tandem.services import billing, credits, entitlements
from tandem.services.pitch.mail import mail_ended
from tandem.services.pitch.present import feature_json
from tandem.services.pitch.records import ATTEMPTS, get_feature, invalid, slot_actions, slot_free
from tandem.services.requests import PaymentNeeded
from tandem.services.requests.present import summary
from tandem.services.viewer import Viewer
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account
from tandem.store.pitch import Feature, FeatureSlot


def create(viewer: Viewer, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST pitch: submit a feature for approval. Members pay 3 credits in the same
    transaction (two parallel submissions with 4 credits: exactly one); a feature-only account
    pays billing's feature product afterwards (POST pitch/{id}/checkout). Reads: ACTING."""
    now = int(now if now is not None else time.time())
    brand, user = viewer.brand, viewer.user
    feature_only = entitlements.feature_only(user, None)  # pays with the feature product
    try:
        clean = rules.clean_feature(
            body if isinstance(body, dict) else {},
            datetime.fromtimestamp(now, UTC).date(),
            paying_with_product=feature_only,
        )
    except rules.FeatureInvalid as exc:
        raise invalid(exc.errors) from None
    brand_id = int(brand.brand_id)
    account_id = brand.account_id
    feature_id = secrets.token_hex(8)
    for _ in range(ATTEMPTS):
        plan = None
        if clean["pay_with"] == rules.PAY_CREDITS:
            held = credits.buckets(account_id)
            refusal = entitlements.rights(Account.find(account_id), held, now, user=user).refusal(
                rules.FEATURE_COST, sum(b.available for b in held if b.usable(now))
            )
            plan = credit_rules.pick(held, rules.FEATURE_COST, now)
            if refusal is not None or plan is None:
                code = "no_subscription" if refusal == entitlements.NEEDS_SUBSCRIPTION else "out_of_credits"
                raise PaymentNeeded(refusal or credit_rules.OUT_OF_CREDITS, code)
        feature = Feature.new(
            feature_id,
            brand_id,
            int(time.time() * 1000),
            account_id=account_id,
            brand=summary(brand),
            title=clean["title"],
            offer=clean["offer"],
            looking_for=clean["looking_for"],
            collab_kinds=clean["collab_kinds"],
            audience=clean["audience"],
            closing_date=clean["closing_date"],
            months=clean["months"],
            pay_with=clean["pay_with"],
            spent=[[b.bucket_id, n] for b, n in plan] if plan else None,
            created_by=user.user_id,
        )
        try:
            with transaction() as tx:
                tx.save(feature, condition=Feature.sk.does_not_exist())
                tx.update(
                    FeatureSlot.at(brand_id),
                    actions=slot_actions(feature),
                    condition=FeatureSlot.free_condition(now),
                )
                if plan:
                    credits.add_spend(tx, account_id, plan, f"feature:{feature_id}", now)
        except ConditionFailed:
            slot = FeatureSlot.find(brand_id, consistent=True)
            if slot is not None and not slot_free(slot, now):
                raise Conflict(rules.ALREADY_OPEN) from None
            continue  # another spend took those credits first: look again
        count_event("FeatureCreated")
        # audit.record(user.user_id, "feature.create", feature_id, {}) — not an admin action
        return {
            "feature": feature_json(feature, viewer=Looker(account_id), now=now),
            "credits": entitlements.credits_of(account_id, brand_id, user=user, now=now),
            "notice": brand_profile.name_notice(
                brand,
                (clean["title"], clean["offer"], clean["looking_for"]),
                brand_profile.NAMES_BRAND_FEATURE,
            ),
        }

    raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")


def checkout(viewer: Viewer, feature_id: str, body: dict[str, Any]) -> dict:
    """POST pitch/{id}/checkout: a Checkout Session for billing's feature product (3 or 6
    months, the feature's term) that carries the feature's id; billing's sync records the
    payment (account billing record `features`), and the admin approves it once paid."""
    brand, account = viewer.brand, viewer.account
    feature = get_feature(feature_id)
    if feature.account_id != brand.account_id or int(feature.brand_id) != int(brand.brand_id):
        raise NotFound(rules.NOT_FOUND)
    if feature.pay_with != rules.PAY_PRODUCT:
        raise Conflict("This feature was paid with credits")
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    if entitlements.paid_by_product(account, feature_id):
        raise Conflict("This feature is already paid")
    if account is None:
        raise NotFound("Account not found")
    return billing.feature_checkout(viewer, feature_id, int(feature.months))


def close(feature: Feature, status: str, now: int, extra: list | None = None, refund: bool = False) -> None:
    """One transaction: the feature leaves its open status (conditional), the slot follows
    (if it still holds this feature), and a refused feature's credits come back."""
    with transaction() as tx:
        tx.update(
            Feature.at(feature.feature_id),
            actions=[*feature.move_actions(status), Feature.closed_at.set(now), *(extra or [])],
            condition=Feature.status == feature.status,
        )
        tx.update(
            FeatureSlot.at(int(feature.brand_id)),
            actions=[FeatureSlot.status.set(status)],
            condition=FeatureSlot.holds(feature.feature_id),
        )
        if refund and feature.spent:
            credits.add_refund(
                tx,
                feature.account_id,
                [(b, int(n)) for b, n in feature.spent],
                f"feature:{feature.feature_id}",
                now,
            )


def end(viewer: Viewer, feature_id: str, now: int | None = None) -> dict[str, Any]:
    """DELETE pitch/{id}: the owner ends its live feature early (no refund, as the feature terms
    say), or withdraws one awaiting approval that nothing was paid for yet (a feature-only
    account's unpaid draft). A paid feature awaiting approval can't be ended: its term has not
    begun, so an early end would take the payment for nothing; an admin approves or refuses it
    (a refusal returns the payment). Another brand's feature: 403, nothing changes."""
    now = int(now if now is not None else time.time())
    brand = viewer.brand
    feature = get_feature(feature_id)
    if int(feature.brand_id) != viewer.brand_id:
        raise Forbidden(rules.NOT_YOURS)
    current = rules.effective_status(feature.status, feature.expires_at, now)
    if current not in rules.OPEN:
        raise Conflict(rules.ALREADY_CLOSED.get(current, rules.ALREADY_CLOSED[rules.ENDED]))
    if not rules.may_end(feature.status, feature.expires_at, now):
        paid = feature.pay_with == rules.PAY_CREDITS or entitlements.paid_by_product(
            Account.find(feature.account_id, consistent=True), feature_id
        )
        if not rules.may_withdraw(feature.status, feature.expires_at, now, paid):
            raise Conflict(rules.PAID_NOT_LIVE)
    try:
        close(feature, rules.ENDED, now)
    except ConditionFailed:
        fresh = get_feature(feature_id)
        raise Conflict(rules.ALREADY_CLOSED.get(fresh.status, rules.ALREADY_CLOSED[rules.ENDED])) from None
    count_event("FeatureEnded")
    mail_ended(feature, early=True)
    feature.status, feature.closed_at = rules.ENDED, now
    return {
        "message": rules.ENDED_MESSAGE,
        "feature": feature_json(feature, viewer=Looker(brand.account_id), now=now),
    }


def expire_due(now: int | None = None) -> dict[str, Any]:
    """Scheduler job `expire-features`: live features past their term become expired (the
    owner is emailed); a new one can then be created."""
    now = int(now if now is not None else time.time())
    expired = 0
    for feature in list(Feature.every_with_status(rules.LIVE, Feature.expires_at <= now)):
        try:
            close(feature, rules.EXPIRED, now)
        except ConditionFailed:
            continue  # ended meanwhile
        expired += 1
        mail_ended(feature, early=False)
    return {"expired": expired}
