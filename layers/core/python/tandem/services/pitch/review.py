"""The admin's review of features: the queue, approval (live from then), refusal (credits
returned or the product refunded)."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import catalogue
from tandem.domain import pitch as rules
from tandem.domain.identity import Looker
from tandem.errors import Conflict, ValidationError
from tandem.observability import count_event, logger
from tandem.services import audit, billing, entitlements, mailer
from tandem.services.pitch.lifecycle import close
from tandem.services.pitch.mail import deliver
from tandem.services.pitch.present import feature_json
from tandem.services.pitch.records import get_feature, invalid, slot_actions
from tandem.store.connection import transaction
from tandem.store.errors import ConditionFailed
from tandem.store.items import get_many
from tandem.store.models import Account, User
from tandem.store.pitch import Feature, FeatureSlot


def admin_list(status: Any, now: int | None = None) -> dict[str, Any]:
    """GET admin/features?status=pending|live: features with their owner, paid or not."""
    now = int(now if now is not None else time.time())
    status = status or rules.PENDING
    if status not in rules.STATUSES:
        raise ValidationError(f"Status must be one of: {', '.join(rules.STATUSES)}")
    found = list(Feature.every_with_status(status))
    found.sort(key=lambda f: f.gsi1sk, reverse=status != rules.PENDING)  # pending: oldest first
    accounts = get_many([(Account, Account.key(a)) for a in {f.account_id for f in found}])
    answer = []
    for feature in found:
        account = accounts.get(Account.key(feature.account_id))
        item = feature_json(feature, viewer=Looker(feature.account_id), now=now, owner_account=account)
        item["brand"]["name"] = feature.brand.name  # admins see every name
        item["accountId"] = feature.account_id
        answer.append(item)
    return {"features": answer, "status": status}


def approve(feature_id: str, admin: User, now: int | None = None) -> dict[str, Any]:
    """POST admin/features/{id}/approve: live from now until the term's end; owner emailed;
    recorded in the audit log."""
    clock = time.time() if now is None else now
    now = int(clock)
    feature = get_feature(feature_id)
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    if feature.pay_with == rules.PAY_PRODUCT and not entitlements.paid_by_product(
        Account.find(feature.account_id), feature_id
    ):
        raise Conflict(rules.NOT_PAID)
    expires = rules.term_end(now, int(feature.months))
    feature.approved_at, feature.expires_at = now, expires
    feature.status = rules.PENDING  # the condition below reads the old status
    try:
        with transaction() as tx:
            tx.update(
                Feature.at(feature_id),
                actions=[
                    # ordered by the ms: two approvals in one second keep their order
                    *feature.move_actions(rules.LIVE, int(clock * 1000)),
                    Feature.approved_at.set(now),
                    Feature.expires_at.set(expires),
                ],
                condition=Feature.status == rules.PENDING,
            )
            feature.status = rules.LIVE
            tx.update(
                FeatureSlot.at(int(feature.brand_id)),
                actions=slot_actions(feature, has_had_live=True),
                condition=FeatureSlot.holds(feature_id),
            )
    except ConditionFailed:
        raise Conflict(rules.NOT_PENDING) from None
    count_event("FeatureApproved")
    audit.record(admin.user_id, "feature.approve", feature_id, _audit_details(feature))
    deliver(
        feature,
        "feature_approved",
        {
            "brand": feature.brand.name,
            "live_until": expires,
            "pitch_url": mailer.link(f"/pitch/jump/{feature_id}"),
        },
        {"title": f"{feature.brand.name} is live in the Pitch Area", "body": "Brands can now pitch to you."},
    )
    return {"feature": feature_json(feature, viewer=Looker(feature.account_id), now=now)}


def refuse(feature_id: str, admin: User, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST admin/features/{id}/refuse {reason}: a pending feature is refused and the 3
    credits it cost come back in the same transaction; a paid feature product is refunded in
    full (Stripe) after it. The reason shows on the owner's feature, the owner is emailed (why,
    what came back, a link to try again) and the audit log records it."""
    now = int(now if now is not None else time.time())
    try:
        reason = rules.clean_reason((body or {}).get("reason"))
    except rules.FeatureInvalid as exc:
        raise invalid(exc.errors) from None
    feature = get_feature(feature_id)
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    try:
        close(feature, rules.REFUSED, now, extra=[Feature.refused_reason.set(reason)], refund=True)
    except ConditionFailed:
        raise Conflict(rules.NOT_PENDING) from None
    count_event("FeatureRefused")
    returned = rules.FEATURE_COST if feature.spent else 0
    payment = _refund_product(feature) if feature.pay_with == rules.PAY_PRODUCT else None
    audit.record(
        admin.user_id,
        "feature.refuse",
        feature_id,
        {**_audit_details(feature), "reason": reason, "creditsReturned": returned, "payment": payment},
    )
    feature.status, feature.refused_reason = rules.REFUSED, reason
    deliver(
        feature,
        "feature_refused",
        {
            "brand": feature.brand.name,
            "reason": reason,
            "credits_returned": returned,
            "payment": payment,
            "new_feature_url": mailer.link("/pitch/new"),
        },
        {"title": "Your feature was not approved", "body": reason},
    )
    return {
        "feature": feature_json(feature, viewer=Looker(feature.account_id), now=now),
        "creditsReturned": returned,
        "payment": payment,
    }


def _audit_details(feature: Feature) -> dict[str, Any]:
    return {
        "brandId": int(feature.brand_id),
        "brand": feature.brand.name,
        "accountId": feature.account_id,
        "title": feature.title,
        "months": int(feature.months),
        "payWith": feature.pay_with,
    }


def _refund_product(feature: Feature) -> dict[str, Any] | None:
    """A refused feature's product payment (billing's record of it) is refunded in full, as a
    refused subscription's is: {amount, currency, refunded}. `refunded` False when Stripe did
    not take the refund (logged; the audit entry shows it and an admin refunds it from the
    account's refund screen). None when the feature was not paid."""
    account = Account.find(feature.account_id, consistent=True)
    record = (account.billing if account is not None else None) or {}
    purchase = next(
        (
            f
            for f in record.get("features") or []
            if f.get("feature") == feature.feature_id and not f.get("refunded")
        ),
        None,
    )
    if account is None or purchase is None:
        return None
    answer: dict[str, Any] = {
        "amount": int(purchase.get("amount") or 0),
        "currency": catalogue.CURRENCY,
        "refunded": False,
    }
    try:
        done = billing.refund_latest_payment(
            billing.customers_of(account),
            payment_id=purchase.get("payment"),
            any_age=True,
            record={"approval": account.billing_approval},
        )
        answer.update(amount=int(done["amount"]), refunded=True)
        billing.sync_account(account.account_id)
    except Exception:  # the refusal stands; an admin refunds by hand
        logger.exception(
            "Could not refund a refused feature's payment", extra={"feature": feature.feature_id}
        )
    return answer
