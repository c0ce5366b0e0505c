"""Billing's vocabulary: the statuses and what reconciliation answers with (BillingState and
the grants, payments, feature purchases and add-ons in it). No I/O."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

DAY = 86400
GUARANTEE_DAYS = 30
MIN_SHIFTED_SHARE = 0.5  # a credit month pushed back by an earlier grant keeps at least half of itself

STATUSES = (
    "none",
    "pending_approval",
    "active",
    "trialling",
    "cancelled",
    "gifted",  # only in records written before issue 21: gifts are the ledger's (entitlements)
    "fixed_term",
    "feature_only",
)
LIVE_SUB_STATUSES = ("active", "trialing", "past_due")
APPROVALS = (None, "required", "approved", "refused")
LEDGER_KIND = {"main": "main", "fixed_term": "main", "extra": "add-on-one-time", "addon": "recurring"}


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Grant:
    key: str  # the ledger op id: the same grant is never made twice
    kind: str  # ledger kind: main | add-on-one-time | recurring
    amount: int
    valid_from: int
    valid_to: int
    product_name: str
    payment: str  # the invoice or checkout session that earned it
    subscription: str | None = None


@dataclass(frozen=True)
class Payment:
    id: str  # invoice id (subscriptions) or checkout session id (one-off purchases)
    kind: str  # main | addon | extra | fixed_term | feature
    amount: int  # minor units actually paid
    currency: str
    paid_at: int
    payment_intents: tuple[str, ...]
    subscription: str | None = None
    billing_reason: str | None = None
    refunded_amount: int = 0
    refunded_at: int | None = None

    @property
    def fully_refunded(self) -> bool:
        return self.amount > 0 and self.refunded_amount >= self.amount


@dataclass(frozen=True)
class FeaturePurchase:
    payment: str
    months: int
    amount: int
    paid_at: int
    brand: str | None
    feature: str | None
    refunded: bool


@dataclass(frozen=True)
class AddonSubscription:
    subscription: str
    product_name: str
    credits: int
    status: str
    period_end: int | None
    cancel_at: int | None
    cancelled_at: int | None


@dataclass(frozen=True)
class BillingState:
    status: str  # one of STATUSES
    plan: str | None = None  # monthly | yearly | fixed_term
    is_yearly: bool = False
    subscription_id: str | None = None
    main_product_id: str | None = None
    main_price_id: str | None = None
    period_start: int | None = None
    period_end: int | None = None
    valid_to: int | None = None  # access is paid until then (a cancelled plan ends here)
    cancel_at: int | None = None
    cancelled_at: int | None = None
    trial_end: int | None = None
    payment_failed: bool = False  # a renewal or upgrade is unpaid (past_due): Stripe retries
    open_invoice_url: str | None = None  # the unpaid invoice to pay again
    approval: str | None = None
    latest_payment_id: str | None = None
    has_new_payment: bool = False
    duplicate_subscriptions: tuple[str, ...] = ()  # live main plans beyond the one in use
    trial_used: bool = False  # a subscription of this customer ever had a free trial
    payments: tuple[Payment, ...] = ()
    grants: tuple[Grant, ...] = ()  # every grant the payments earn, future months included
    revoked: tuple[str, ...] = ()  # keys of grants whose payment was refunded in full
    features: tuple[FeaturePurchase, ...] = ()
    addons: tuple[AddonSubscription, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """The JSON-able billing record to keep on the account (grants live in the ledger)."""
        data = asdict(self)
        for key in ("payments", "grants", "revoked"):
            data.pop(key)
        data["features"] = [asdict(f) for f in self.features]
        data["addons"] = [asdict(a) for a in self.addons]
        data["duplicate_subscriptions"] = list(self.duplicate_subscriptions)
        return data
