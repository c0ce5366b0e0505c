"""The account's rights as services read them: the account's two parts (what Stripe's sync
wrote, what Tandem granted) are read off the Account item and handed to the one owner of the
rules, tandem.domain.entitlements. Every service asks here; nothing else spells a right.

`credits_info` is the one Credits info builder (SPEC section 3, every field): the dashboard and
every call that changes credits (send, pitch, accept / decline / cancel, create a feature, an
admin's grant) return it, so the web can replace its copy whole.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from tandem.domain import catalogue
from tandem.domain import credits as credit_rules
from tandem.domain import entitlements as rules
from tandem.domain import pitch as pitch_rules
from tandem.domain.times import iso
from tandem.services import credits
from tandem.store.items import get_many
from tandem.store.models import Account, User
from tandem.store.pitch import FeatureSlot

NEEDS_SUBSCRIPTION = rules.NEEDS_SUBSCRIPTION
NAMES_SHOWN_GLOBALLY = rules.NAMES_SHOWN_GLOBALLY


def _now(now: int | None) -> int:
    return int(now if now is not None else time.time())


def stripe_part(account: Account | None) -> rules.StripePart:
    if account is None:
        return rules.StripePart()
    return rules.StripePart.of(
        account.subscription_status,
        account.subscription_valid_to,
        account.billing,
        has_customer=bool(account.stripe_customers),
    )


def tandem_part(account: Account | None) -> rules.TandemPart:
    return rules.TandemPart.of(account.tandem_grants if account is not None else None)


def plan(account: Account | None, now: int | None = None) -> rules.Plan:
    return rules.plan_of(stripe_part(account), tandem_part(account), _now(now))


def status(account: Account | None, now: int | None = None) -> str:
    """The plan's state in force (none | pending_approval | active | trialling | cancelled |
    fixed_term), whichever source gave it."""
    return plan(account, now).state


def feature_only(user: User | None, account: Account | None) -> bool:
    """The caller's account is feature-only (its user type, or billing's sync): read here, from
    the user and the account, never passed in by a caller."""
    return _feature_only(user, stripe_part(account))


def _feature_only(user: User | None, stripe: rules.StripePart) -> bool:
    return rules.is_feature_only(user.access if user is not None else None, stripe)


def is_admin(user: User | None) -> bool:
    """The caller is a Tandem admin (the console's routes, acting as another user)."""
    return rules.is_admin(user.access if user is not None else None)


def sees_brand_names(account: Account | None, user: User | None, now: int | None = None) -> bool:
    """Other brands' names are shown to this member (one rule everywhere: entitlements); the
    same answer as `rights(...).names_shown` and the credits info's namesShown."""
    return rules.names_shown(plan(account, now), feature_only(user, account))


def can_require_approval(account: Account | None, user: User | None) -> bool:
    """The console's canRequireApproval, and what POST admin/accounts/{id}/require-approval asks."""
    approval = account.billing_approval if account is not None else None
    return rules.may_require_approval(plan(account), feature_only(user, account), approval)


def trial_refusal(account: Account | None, user: User | None, now: int | None = None) -> str | None:
    """Why an admin may not grant this member Tandem's free trial, or None: the console's
    canGrantTrial, and what POST admin/accounts/{id}/grant {kind: trial} asks."""
    had_trial = stripe_part(account).trial_used or tandem_part(account).trial_used
    return rules.trial_refusal(plan(account, now), feature_only(user, account), had_trial)


def awaits_approval(account: Account | None, now: int | None = None) -> bool:
    return plan(account, now).state == rules.PENDING


def rights(
    account: Account | None,
    buckets: Sequence[credit_rules.Bucket],
    now: int | None = None,
    *,
    user: User | None,
    feature: Mapping[str, Any] | None = None,
) -> rules.Rights:
    """Every right of `user` (None: an account read without its user, e.g. an admin's grant)
    with `account` and the credits it holds."""
    now = _now(now)
    stripe, tandem = stripe_part(account), tandem_part(account)
    only = _feature_only(user, stripe)
    return rules.rights(
        rules.plan_of(stripe, tandem, now),
        buckets,
        now,
        feature_only=only,
        feature=feature,
        stripe=stripe,
        tandem=tandem,
    )


def credits_info(
    account: Account | None,
    buckets: Sequence[credit_rules.Bucket],
    now: int | None = None,
    *,
    user: User | None,
    feature: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """SPEC section 3's Credits info with every field, from what the caller already read."""
    now = _now(now)
    stripe = stripe_part(account)
    r = rights(account, buckets, now, user=user, feature=feature)
    record = (account.billing if account is not None else None) or {}
    return rules.credits_info(
        r,
        buckets,
        now,
        stripe=stripe,
        feature=feature,
        products=catalogue.contract_credits_products(),
        has_new_payment=bool(record.get("has_new_payment")),
        cancels=cancels_of(record) if r.plan.source == "stripe" else None,
        main_product_id=catalogue.CONTRACT_IDS.get(record.get("main_product_id") or "")
        or record.get("main_product_id"),
    )


def credits_of(
    account_id: str,
    brand_id: int | None = None,
    *,
    user: User | None = None,
    now: int | None = None,
) -> dict[str, Any]:
    """Credits info read fresh for a call that changed credits: the account and the brand's
    Pitch Area feature in one BatchGetItem, then the account's buckets."""
    now = _now(now)
    wanted: list = [(Account, Account.key(account_id))]
    if brand_id is not None:
        wanted.append((FeatureSlot, FeatureSlot.key(brand_id)))
    found = get_many(wanted, consistent=True)
    account = found.get(Account.key(account_id))
    slot = found.get(FeatureSlot.key(brand_id)) if brand_id is not None else None
    feature = feature_done(slot, account, now) if brand_id is not None else None
    return credits_info(account, credits.buckets(account_id), now, user=user, feature=feature)


def cancels_of(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """Credits info's cancels: a Stripe plan set to end ({cancel_at, cancelled_at}, ISO 8601)."""
    if record.get("cancel_at") is None:
        return None
    return {
        "cancel_at": iso(record["cancel_at"]),
        "cancelled_at": iso(record.get("cancelled_at")),
    }


def paid_by_product(account: Account | None, feature_id: str) -> bool:
    """Billing's sync recorded a paid (not refunded) feature product for this feature: the
    billing record's `features` (tandem.domain.billing.FeaturePurchase, from the Checkout
    Session's metadata), never what a browser says."""
    record = (account.billing if account is not None else None) or {}
    return any(f.get("feature") == feature_id and not f.get("refunded") for f in record.get("features") or [])


def feature_done(slot: FeatureSlot | None, account: Account | None, now: int | None = None) -> dict[str, Any]:
    """Credits info's featureDone (SPEC section 3) for the selected brand, from its Pitch Area
    slot (tandem.store.pitch.FeatureSlot, read by the caller) and the account's billing record."""
    now = _now(now)
    if slot is None:
        return pitch_rules.feature_done(None, paid_by_product=False, has_had_live=False, now=now)
    paid = paid_by_product(account, slot.feature_id)
    return pitch_rules.feature_done(
        slot.as_dict(), paid_by_product=paid, has_had_live=bool(slot.has_had_live), now=now
    )
