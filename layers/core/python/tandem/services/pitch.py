"""The Pitch Area: features (a brand's featured opportunity) and pitches to them.

Every change of a feature is ONE transaction: the feature (conditional on its old status), the
brand's slot (store/pitch.py: one open feature per brand; the dashboard's featureDone) and,
when credits pay, the credit ledger (tandem.services.credits.add_spend / add_refund). A pitch
is a connection request to the feature's owner (tandem.services.requests with a `Pitch`): the
owner's received requests ('Pitches Received') list it and accept / decline work as for any
request (docs/decisions.md).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from pynamodb.exceptions import TransactWriteError

from tandem.domain import brand_profile
from tandem.domain import credits as credit_rules
from tandem.domain import pitch as rules
from tandem.errors import Conflict, Forbidden, NotFound, ValidationError
from tandem.observability import count_event, logger
from tandem.services import audit, credits, mailer, notify, subscriptions
from tandem.store.connection import transaction
from tandem.store.items import get_many
from tandem.store.models import Account, Brand, ConnectionRequest, User
from tandem.store.pitch import Feature, FeatureSlot

ATTEMPTS = 4


def _invalid(errors: dict[str, str]) -> ValidationError:
    error = ValidationError(next(iter(errors.values())))
    error.errors = errors  # type: ignore[attr-defined]
    return error


def _summary(brand: Brand) -> Any:
    from tandem.services.requests.present import summary

    return summary(brand)


def options() -> dict[str, Any]:
    """What the Pitch screens offer: filters, terms, costs."""
    return {
        "collabKinds": list(brand_profile.COLLAB_KINDS),
        "categories": list(brand_profile.CATEGORIES),
        "terms": list(rules.FEATURE_TERMS),
        "months": list(rules.TERMS),
        "featureCost": rules.FEATURE_COST,
        "pitchCost": rules.PITCH_COST,
    }


# ---------------------------------------------------------------- presenting


def paid_by_product(account: Account | None, feature_id: str) -> bool:
    """Billing's sync recorded a paid (not refunded) feature product for this feature: the
    billing record's `features` (tandem.domain.billing.FeaturePurchase, from the Checkout
    Session's metadata), never what a browser says."""
    record = (account.billing if account is not None else None) or {}
    return any(f.get("feature") == feature_id and not f.get("refunded") for f in record.get("features") or [])


def _iso(epoch: Any) -> str | None:
    return credit_rules.iso(int(epoch)) if epoch is not None else None


def feature_json(
    feature: Feature,
    *,
    viewer_account_id: str | None,
    sees_names: bool,
    now: int,
    owner_account: Account | None = None,
) -> dict[str, Any]:
    """A feature as a member sees it: the brand masked by Matches' rule, their own marked."""
    own = viewer_account_id is not None and feature.account_id == viewer_account_id
    kept = feature.brand
    visible = brand_profile.name_visible(
        same_account=own, connected=False, viewer_subscribed=sees_names, hides_name=bool(kept.hide_name)
    )
    status = rules.effective_status(feature.status, feature.expires_at, now)
    answer: dict[str, Any] = {
        "id": feature.feature_id,
        "brand": {
            "id": int(kept.id),
            "name": brand_profile.display_name(kept.name, kept.category or "", visible),
            "logoUrl": kept.logo_url if visible else None,
            "category": kept.category or "",
        },
        "nameVisible": visible,
        "title": feature.title,
        "offer": feature.offer,
        "lookingFor": feature.looking_for,
        "collabKinds": list(feature.collab_kinds or []),
        "audience": feature.audience or "",
        "closingDate": feature.closing_date,
        "months": int(feature.months),
        "status": status,
        "live": status == rules.LIVE,
        "createdAt": _iso(int(feature.created_at) // 1000),
        "approvedAt": _iso(feature.approved_at),
        "expiresAt": _iso(feature.expires_at),
        "own": own,
    }
    if own:
        paid = feature.pay_with == rules.PAY_CREDITS or paid_by_product(owner_account, feature.feature_id)
        answer.update(
            {
                "payWith": feature.pay_with,
                "paid": paid,
                "paymentView": rules.payment_view(feature.as_dict(), paid, now),
                "refusedReason": feature.refused_reason,
            }
        )
    return answer


def feature_done(slot: FeatureSlot | None, account: Account | None, now: int | None = None) -> dict[str, Any]:
    """Credits info's featureDone (SPEC section 3) for the selected brand, from its slot (read
    in the dashboard's BatchGetItem) and the account's billing record (already read)."""
    now = int(now if now is not None else time.time())
    if slot is None:
        return rules.feature_done(None, paid_by_product=False, has_had_live=False, now=now)
    return rules.feature_done(
        slot.as_dict(),
        paid_by_product=paid_by_product(account, slot.feature_id),
        has_had_live=bool(slot.has_had_live),
        now=now,
    )


# ---------------------------------------------------------------- reading


def _get(feature_id: str, consistent: bool = True) -> Feature:
    if not rules.valid_id(feature_id):
        raise NotFound(rules.NOT_FOUND)
    feature = Feature.find(feature_id, consistent=consistent)
    if feature is None:
        raise NotFound(rules.NOT_FOUND)
    return feature


def list_live(
    account: Account | None,
    viewer_account_id: str,
    kind: Any = None,
    category: Any = None,
    cursor: Any = None,
    now: int | None = None,
) -> dict[str, Any]:
    """GET pitch: a page of live features, newest approval first (ONE Query; the caller's check
    read the account). Filters: `kind` (a collaboration kind), `category` (the brand's)."""
    now = int(now if now is not None else time.time())
    try:
        kind = rules.check_filter("collaboration kind", kind, brand_profile.COLLAB_KINDS)
        category = rules.check_filter("category", category, brand_profile.CATEGORIES)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    condition = Feature.expires_at > now
    if kind:
        condition &= Feature.collab_kinds.contains(kind)
    if category:
        condition &= Feature.brand.category == category
    if cursor is not None and not isinstance(cursor, str):
        raise ValidationError("This list's position is not valid; load it again")
    try:
        found, after = Feature.page_with_status(rules.LIVE, rules.PAGE_SIZE, cursor, condition)
    except ValueError:
        raise ValidationError("This list's position is not valid; load it again") from None
    sees = subscriptions.sees_brand_names(account)
    return {
        "features": [
            feature_json(
                f, viewer_account_id=viewer_account_id, sees_names=sees, now=now, owner_account=account
            )
            for f in found
        ],
        "cursor": after,
        "options": options(),
    }


def pitch_request_id(feature_id: str, brand_id: int) -> str:
    """One brand pitches to one feature once: the request's id is fixed by the two."""
    return hashlib.sha256(f"pitch|{feature_id}|{int(brand_id)}".encode()).hexdigest()[:16]


def view(feature_id: str, brand: Brand, account: Account | None, now: int | None = None) -> dict[str, Any]:
    """GET pitch/{id}: a feature that was live (live, expired, ended) for anyone; one that never
    was (pending, refused, withdrawn before approval) only for its owner.
    `pitch`: this brand's pitch to it, if any (one BatchGetItem of the feature and the pitch)."""
    now = int(now if now is not None else time.time())
    if not rules.valid_id(feature_id):
        raise NotFound(rules.NOT_FOUND)
    request_id = pitch_request_id(feature_id, int(brand.brand_id))
    found = get_many(
        [(Feature, Feature.key(feature_id)), (ConnectionRequest, ConnectionRequest.key(request_id))],
        consistent=True,
    )
    feature = found.get(Feature.key(feature_id))
    own = feature is not None and feature.account_id == brand.account_id
    never_live = feature is not None and (
        feature.status in (rules.PENDING, rules.REFUSED) or feature.approved_at is None
    )  # pending, refused, or ended (withdrawn) before it was approved
    if feature is None or (never_live and not own):
        raise NotFound(rules.NOT_FOUND)
    answer = feature_json(
        feature,
        viewer_account_id=brand.account_id,
        sees_names=subscriptions.sees_brand_names(account),
        now=now,
        owner_account=account,
    )
    sent = found.get(ConnectionRequest.key(request_id))
    answer["pitch"] = (
        {"id": sent.request_id, "status": sent.status, "createdAt": _iso(int(sent.created_at) // 1000)}
        if sent is not None
        else None
    )
    answer["canPitch"] = (
        sent is None and rules.pitch_refusal(feature.status, feature.expires_at, now, own) is None
    )
    return {"feature": answer, "options": options()}


def mine(
    brand: Brand, account: Account | None, slot: FeatureSlot | None, now: int | None = None
) -> dict[str, Any]:
    """GET pitch/mine: the brand's features, newest first, and its featureDone."""
    now = int(now if now is not None else time.time())
    features = Feature.of_brand(int(brand.brand_id))
    return {
        "features": [
            feature_json(
                f, viewer_account_id=brand.account_id, sees_names=True, now=now, owner_account=account
            )
            for f in features
        ],
        "featureDone": feature_done(slot, account, now),
        "options": options(),
    }


# ---------------------------------------------------------------- creating


def _slot_actions(feature: Feature, **extra: Any) -> list:
    actions = [
        FeatureSlot.feature_id.set(feature.feature_id),
        FeatureSlot.status.set(feature.status),
        FeatureSlot.pay_with.set(feature.pay_with),
    ]
    for name in ("approved_at", "expires_at"):
        value = getattr(feature, name)
        attr = getattr(FeatureSlot, name)
        actions.append(attr.set(value) if value is not None else attr.remove())
    for name, value in extra.items():
        actions.append(getattr(FeatureSlot, name).set(value))
    return actions


def create(brand: Brand, user: User, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST pitch: submit a feature for approval. Members pay 3 credits in the same
    transaction (two parallel submissions with 4 credits: exactly one); a feature-only account
    pays billing's feature product afterwards (POST pitch/{id}/checkout)."""
    now = int(now if now is not None else time.time())
    feature_only = user.access == "feature"
    try:
        clean = rules.clean_feature(
            body if isinstance(body, dict) else {},
            datetime.fromtimestamp(now, UTC).date(),
            paying_with_product=feature_only,
        )
    except rules.FeatureInvalid as exc:
        raise _invalid(exc.errors) from None
    brand_id = int(brand.brand_id)
    account_id = brand.account_id
    feature_id = secrets.token_hex(8)
    for _ in range(ATTEMPTS):
        plan = None
        if clean["pay_with"] == rules.PAY_CREDITS:
            plan = credit_rules.pick(credits.buckets(account_id), rules.FEATURE_COST, now)
            if plan is None:
                from tandem.services.requests import PaymentNeeded

                raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
        feature = Feature.new(
            feature_id,
            brand_id,
            int(time.time() * 1000),
            account_id=account_id,
            brand=_summary(brand),
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
                    actions=_slot_actions(feature),
                    condition=FeatureSlot.free_condition(now),
                )
                if plan:
                    credits.add_spend(tx, account_id, plan, f"feature:{feature_id}", now)
        except TransactWriteError:
            slot = FeatureSlot.find(brand_id, consistent=True)
            if slot is not None and not _slot_free(slot, now):
                raise Conflict(rules.ALREADY_OPEN) from None
            continue  # another spend took those credits first: look again
        count_event("FeatureCreated")
        # audit.record(user.user_id, "feature.create", feature_id, {}) — not an admin action
        return {
            "feature": feature_json(feature, viewer_account_id=account_id, sees_names=True, now=now),
            "credits": credits.info(account_id, now),
        }
    from tandem.services.requests import PaymentNeeded

    raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")


def _slot_free(slot: FeatureSlot, now: int) -> bool:
    if slot.status in (rules.EXPIRED, rules.ENDED, rules.REFUSED):
        return True
    return slot.status == rules.LIVE and slot.expires_at is not None and int(slot.expires_at) <= now


def checkout(
    feature_id: str, brand: Brand, user: User, account: Account | None, body: dict[str, Any]
) -> dict:
    """POST pitch/{id}/checkout: a Checkout Session for billing's feature product (3 or 6
    months, the feature's term) that carries the feature's id; billing's sync records the
    payment (account billing record `features`), and the admin approves it once paid."""
    from tandem.domain import catalogue
    from tandem.integrations import stripe_client
    from tandem.services import billing

    feature = _get(feature_id)
    if feature.account_id != brand.account_id or int(feature.brand_id) != int(brand.brand_id):
        raise NotFound(rules.NOT_FOUND)
    if feature.pay_with != rules.PAY_PRODUCT:
        raise Conflict("This feature was paid with credits")
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    if paid_by_product(account, feature_id):
        raise Conflict("This feature is already paid")
    if account is None:
        raise NotFound("Account not found")
    key = next(
        (p.lookup_key for p in catalogue.PRICES if p.kind == "feature" and p.months == int(feature.months)),
        None,
    )
    if key is None:
        raise ValidationError("No feature product for this term")
    customer = billing.ensure_customer(account, user, brand)
    session = stripe_client.create_checkout_session(
        customer=customer,
        lookup_key=key,
        account_id=account.account_id,
        brand_id=str(int(brand.brand_id)),
        user_id=user.user_id,
        page_type="pitch",
        item_id=feature_id,
        feature_id=feature_id,
    )
    return {"url": session["url"]}


# ---------------------------------------------------------------- ending, expiring


def _close(feature: Feature, status: str, now: int, extra: list | None = None, refund: bool = False) -> None:
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


def end(feature_id: str, brand: Brand, now: int | None = None) -> dict[str, Any]:
    """DELETE pitch/{id}: the owner ends its live feature early (no refund, as the feature terms
    say), or withdraws one awaiting approval that nothing was paid for yet (a feature-only
    account's unpaid draft). A paid feature awaiting approval can't be ended: its term has not
    begun, so an early end would take the payment for nothing; an admin approves or refuses it
    (a refusal returns the payment). Another brand's feature: 403, nothing changes."""
    now = int(now if now is not None else time.time())
    feature = _get(feature_id)
    if int(feature.brand_id) != int(brand.brand_id):
        raise Forbidden(rules.NOT_YOURS)
    current = rules.effective_status(feature.status, feature.expires_at, now)
    if current not in rules.OPEN:
        raise Conflict(rules.ALREADY_CLOSED.get(current, rules.ALREADY_CLOSED[rules.ENDED]))
    if current == rules.PENDING and (
        feature.pay_with == rules.PAY_CREDITS
        or paid_by_product(Account.find(feature.account_id, consistent=True), feature_id)
    ):
        raise Conflict(rules.PAID_NOT_LIVE)
    try:
        _close(feature, rules.ENDED, now)
    except TransactWriteError:
        fresh = _get(feature_id)
        raise Conflict(rules.ALREADY_CLOSED.get(fresh.status, rules.ALREADY_CLOSED[rules.ENDED])) from None
    count_event("FeatureEnded")
    _mail_ended(feature, early=True)
    feature.status, feature.closed_at = rules.ENDED, now
    return {
        "message": rules.ENDED_MESSAGE,
        "feature": feature_json(feature, viewer_account_id=brand.account_id, sees_names=True, now=now),
    }


def expire_due(now: int | None = None) -> dict[str, Any]:
    """Scheduler job `expire-features`: live features past their term become expired (the
    owner is emailed); a new one can then be created."""
    now = int(now if now is not None else time.time())
    expired = 0
    for feature in list(Feature.every_with_status(rules.LIVE, Feature.expires_at <= now)):
        try:
            _close(feature, rules.EXPIRED, now)
        except TransactWriteError:
            continue  # ended meanwhile
        expired += 1
        _mail_ended(feature, early=False)
    return {"expired": expired}


# ---------------------------------------------------------------- admin


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
        item = feature_json(
            feature, viewer_account_id=feature.account_id, sees_names=True, now=now, owner_account=account
        )
        item["brand"]["name"] = feature.brand.name  # admins see every name
        item["accountId"] = feature.account_id
        answer.append(item)
    return {"features": answer, "status": status}


def approve(feature_id: str, admin: User, now: int | None = None) -> dict[str, Any]:
    """POST admin/features/{id}/approve: live from now until the term's end; owner emailed;
    recorded in the audit log."""
    clock = time.time() if now is None else now
    now = int(clock)
    feature = _get(feature_id)
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    if feature.pay_with == rules.PAY_PRODUCT and not paid_by_product(
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
                actions=_slot_actions(feature, has_had_live=True),
                condition=FeatureSlot.holds(feature_id),
            )
    except TransactWriteError:
        raise Conflict(rules.NOT_PENDING) from None
    count_event("FeatureApproved")
    audit.record(admin.user_id, "feature.approve", feature_id, _audit_details(feature))
    _deliver(
        feature,
        "feature_approved",
        {
            "brand": feature.brand.name,
            "live_until": expires,
            "pitch_url": mailer.link(f"/pitch/jump/{feature_id}"),
        },
        {"title": f"{feature.brand.name} is live in the Pitch Area", "body": "Brands can now pitch to you."},
    )
    return {"feature": feature_json(feature, viewer_account_id=feature.account_id, sees_names=True, now=now)}


def refuse(feature_id: str, admin: User, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST admin/features/{id}/refuse {reason}: a pending feature is refused and the 3
    credits it cost come back in the same transaction; a paid feature product is refunded in
    full (Stripe) after it. The reason shows on the owner's feature, the owner is emailed (why,
    what came back, a link to try again) and the audit log records it."""
    now = int(now if now is not None else time.time())
    try:
        reason = rules.clean_reason((body or {}).get("reason"))
    except rules.FeatureInvalid as exc:
        raise _invalid(exc.errors) from None
    feature = _get(feature_id)
    if feature.status != rules.PENDING:
        raise Conflict(rules.NOT_PENDING)
    try:
        _close(feature, rules.REFUSED, now, extra=[Feature.refused_reason.set(reason)], refund=True)
    except TransactWriteError:
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
    _deliver(
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
        "feature": feature_json(feature, viewer_account_id=feature.account_id, sees_names=True, now=now),
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
    from tandem.domain import catalogue
    from tandem.integrations import stripe_client
    from tandem.services import billing

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
        done = stripe_client.refund_latest_payment(
            billing.customers_of(account),
            payment_id=purchase.get("payment"),
            any_age=True,
            record={"approval": account.billing_approval},
        )
        answer.update(amount=int(done["amount"]), refunded=True)
        billing.sync_account(account.account_id)
    except Exception:  # noqa: BLE001  (the refusal stands; an admin refunds by hand)
        logger.exception(
            "Could not refund a refused feature's payment", extra={"feature": feature.feature_id}
        )
    return answer


# ---------------------------------------------------------------- pitching


def pitch(feature_id: str, brand: Brand, body: dict[str, Any], now: int | None = None) -> dict[str, Any]:
    """POST pitch/{id}/pitch {message}: 1 credit, a request to the feature's owner. Your own
    feature, a second pitch, a feature not live: 4xx and nothing changes."""
    from tandem.services import requests
    from tandem.services.requests.sending import Pitch

    now = int(now if now is not None else time.time())
    feature = _get(feature_id)
    own = feature.account_id == brand.account_id
    if own:
        raise ValidationError(rules.OWN_FEATURE)
    if feature.status in (rules.PENDING, rules.REFUSED):
        raise NotFound(rules.NOT_FOUND)  # others never learn of a feature that is not live
    why = rules.pitch_refusal(feature.status, feature.expires_at, now, own)
    if why:
        raise Conflict(why)
    request_id = pitch_request_id(feature_id, int(brand.brand_id))
    if ConnectionRequest.find(request_id, consistent=True) is not None:
        raise Conflict(rules.ALREADY_PITCHED)

    def live_check(tx: Any, at: int) -> None:
        tx.condition_check(
            Feature,
            *Feature.key(feature_id),
            condition=(Feature.status == rules.LIVE) & (Feature.expires_at > at),
        )

    def refusal(at: int) -> str | None:
        if ConnectionRequest.find(request_id, consistent=True) is not None:
            return rules.ALREADY_PITCHED
        fresh = _get(feature_id)
        return rules.pitch_refusal(fresh.status, fresh.expires_at, at, False)

    body = body if isinstance(body, dict) else {}
    return requests.send(
        brand,
        {"message": body.get("message")},
        pitch=Pitch(
            request_id=request_id,
            feature_id=feature_id,
            title=feature.title,
            brand_id=int(feature.brand_id),
            live_check=live_check,
            refusal=refusal,
        ),
    )


# ---------------------------------------------------------------- email


def _mail_ended(feature: Feature, early: bool) -> None:
    _deliver(
        feature,
        "feature_ended",
        {"brand": feature.brand.name, "ended_early": early, "new_feature_url": mailer.link("/pitch/new")},
        {"title": rules.ENDED_MESSAGE, "body": f"Your feature for {feature.brand.name} has ended."},
    )


def _deliver(feature: Feature, template: str, context: dict[str, Any], push: dict[str, str]) -> None:
    try:
        notify.notify(
            account_id=feature.account_id,
            source="feature_status",
            template=template,
            context=context,
            push={**push, "url": f"/pitch/jump/{feature.feature_id}"},
            subject=feature.feature_id,
        )
    except Exception:  # noqa: BLE001  (an email never undoes a change)
        logger.exception("Could not queue a feature notification", extra={"template": template})
