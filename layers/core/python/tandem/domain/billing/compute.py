"""The account's billing state from its snapshot (`compute`): the plan and its status, the
payments, feature purchases and add-ons, and the grants the payments earn (grants.py's `earned`:
which of them to write is grants.py's too); the money-back guarantee and the refundable payment;
the state read back from the account's record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tandem.domain.billing.grants import _fixed_terms, earned
from tandem.domain.billing.results import (
    APPROVALS,
    DAY,
    GUARANTEE_DAYS,
    LIVE_SUB_STATUSES,
    AddonSubscription,
    BillingState,
    FeaturePurchase,
    Payment,
)
from tandem.domain.billing.snapshot import (
    _collect,
    _data,
    _get,
    _int,
    _invoice_subscription,
    _read,
    _Snapshot,
)
from tandem.domain.catalogue import PriceInfo, classify

# ---------------------------------------------------------------- the account's state


def _main_item(sub: Mapping[str, Any]) -> tuple[Mapping[str, Any], PriceInfo] | None:
    for item in _data(sub.get("items")):
        info = classify(item.get("price"))
        if info is not None and info.kind == "main":
            return item, info
    return None


def _period_of(sub: Mapping[str, Any], item: Mapping[str, Any]) -> tuple[int | None, int | None]:
    start = _int(item.get("current_period_start"))
    end = _int(item.get("current_period_end"))
    if start is None:  # older API versions kept the period on the subscription
        start, end = _int(sub.get("current_period_start")), _int(sub.get("current_period_end"))
    return start, end


def _ended_by_refund(sub_id: str, payments: Sequence[Payment]) -> bool:
    """A plan whose latest paid main payment was refunded in full has ended (money back)."""
    own = [p for p in payments if p.subscription == sub_id and p.kind == "main" and p.amount > 0]
    return bool(own) and own[-1].fully_refunded


def compute(snapshot: Mapping[str, Any], record: Mapping[str, Any] | None, now: int) -> BillingState:
    """The account's billing state at `now` from the customer's whole Stripe snapshot."""
    record = record or {}
    approval = record.get("approval")
    if approval not in APPROVALS:
        raise ValueError(f"approval must be one of {APPROVALS}, not {approval!r}")
    snap = _read(snapshot)
    _collect(snap)
    refunded = {p.id for p in snap.payments if p.fully_refunded}
    grants, revoked = earned(snap, refunded)

    # The plan: the best live main subscription (active before past due, the latest period).
    live = []
    for sub in snap.subscriptions:
        found = _main_item(sub)
        if found is None or sub.get("status") not in LIVE_SUB_STATUSES:
            continue
        if _ended_by_refund(sub["id"], snap.payments):
            continue
        item, info = found
        start, end = _period_of(sub, item)
        live.append((0 if sub["status"] != "past_due" else 1, -(end or 0), sub["id"], sub, item, info))
    live.sort(key=lambda row: row[:3])

    features = tuple(
        FeaturePurchase(
            payment=p.id,
            months=next((i.months or 0 for i, _ in snap.session_lines[p.id] if i.kind == "feature"), 0),
            amount=p.amount,
            paid_at=p.paid_at,
            brand=_session_brand(snap, p.id),
            feature=_get(_session(snap, p.id), "metadata", "feature"),
            refunded=p.fully_refunded,
        )
        for p in snap.payments
        if any(i.kind == "feature" for i, _ in snap.session_lines.get(p.id) or [])
    )
    addons = _addons(snap)
    latest = snap.payments[-1].id if snap.payments else None
    common: dict[str, Any] = {
        "approval": approval,
        "latest_payment_id": latest,
        "has_new_payment": latest is not None and latest != record.get("last_payment_id"),
        "payments": tuple(snap.payments),
        "grants": grants,
        "revoked": revoked,
        "features": features,
        "addons": addons,
        "duplicate_subscriptions": tuple(row[2] for row in live[1:]),
        "trial_used": any(s.get("trial_start") or s.get("trial_end") for s in snap.subscriptions),
    }

    if live and approval != "refused":
        _, _, sub_id, sub, item, info = live[0]
        start, end = _period_of(sub, item)
        cancel_at = _int(sub.get("cancel_at")) or (end if sub.get("cancel_at_period_end") else None)
        if approval == "required":
            status = "pending_approval"
        elif cancel_at is not None:
            status = "cancelled"
        elif sub.get("status") == "trialing":
            status = "trialling"
        else:
            status = "active"
        open_invoice = _open_invoice(snap, sub_id)
        return BillingState(
            status=status,
            plan="yearly" if info.interval == "year" else "monthly",
            is_yearly=info.interval == "year",
            subscription_id=sub_id,
            main_product_id=info.product_id,
            main_price_id=info.price_id,
            period_start=start,
            period_end=end,
            valid_to=cancel_at or end,
            cancel_at=cancel_at,
            cancelled_at=_int(sub.get("canceled_at")) if cancel_at is not None else None,
            trial_end=_int(sub.get("trial_end")) if sub.get("status") == "trialing" else None,
            payment_failed=sub.get("status") == "past_due" or open_invoice is not None,
            open_invoice_url=(open_invoice or {}).get("hosted_invoice_url"),
            **common,
        )

    terms = [t for t in _fixed_terms(snap, refunded) if t[0].id not in refunded]
    current = next(((p, s, e, i) for p, s, e, i in terms if s <= now < e), None)
    if current is not None and approval != "refused":
        payment, start, end, info = current
        valid_to = end
        for _, later_start, later_end, _ in sorted(terms, key=lambda t: t[1]):
            if later_start <= valid_to:
                valid_to = max(valid_to, later_end)  # back-to-back terms run on
        return BillingState(
            status="pending_approval" if approval == "required" else "fixed_term",
            plan="fixed_term",
            main_product_id=info.product_id,
            main_price_id=info.price_id or None,
            period_start=start,
            period_end=end,
            valid_to=valid_to,
            **common,
        )
    if record.get("feature_only") or any(not f.refunded for f in features):
        return BillingState(status="feature_only", **common)
    return BillingState(status="none", **common)


def _session(snap: _Snapshot, session_id: str) -> Mapping[str, Any] | None:
    return next((s for s in snap.sessions if s["id"] == session_id), None)


def _session_brand(snap: _Snapshot, session_id: str) -> str | None:
    session = _session(snap, session_id) or {}
    brand = _get(session, "metadata", "brand") or session.get("client_reference_id")
    return str(brand) if brand else None


def _open_invoice(snap: _Snapshot, sub_id: str) -> Mapping[str, Any] | None:
    open_ones = [i for i in snap.invoices if _invoice_subscription(i) == sub_id and i.get("status") == "open"]
    return max(open_ones, key=lambda i: (int(i.get("created") or 0), i["id"])) if open_ones else None


def _addons(snap: _Snapshot) -> tuple[AddonSubscription, ...]:
    found = []
    for sub in snap.subscriptions:
        if sub.get("status") not in LIVE_SUB_STATUSES:
            continue
        for item in _data(sub.get("items")):
            info = classify(item.get("price"))
            if info is None or info.kind != "addon":
                continue
            _, end = _period_of(sub, item)
            cancel_at = _int(sub.get("cancel_at")) or (end if sub.get("cancel_at_period_end") else None)
            found.append(
                AddonSubscription(
                    subscription=sub["id"],
                    product_name=info.name,
                    credits=info.credits * int(item.get("quantity") or 1),
                    status=str(sub.get("status")),
                    period_end=end,
                    cancel_at=cancel_at,
                    cancelled_at=_int(sub.get("canceled_at")) if cancel_at is not None else None,
                )
            )
    return tuple(found)


# ---------------------------------------------------------------- the guarantee


def within_guarantee(payment: Payment, now: int) -> bool:
    """The 30-day money-back guarantee: a payment made at most 30 days ago."""
    return now - payment.paid_at <= GUARANTEE_DAYS * DAY


def refundable_payment(state: BillingState, now: int, *, any_age: bool = False) -> Payment | None:
    """The latest payment that can be refunded (paid, not refunded yet, within the guarantee
    unless `any_age`): what an admin's money-back refund returns."""
    for payment in reversed(state.payments):
        if payment.amount > 0 and payment.refunded_amount == 0:
            return payment if any_age or within_guarantee(payment, now) else None
    return None


def state_from_record(record: Mapping[str, Any] | None) -> BillingState:
    """The billing state kept on the account (`BillingState.to_record()`), read back for the
    Credits info: payments, grants and revocations live in Stripe and the ledger, not here."""
    record = dict(record or {})
    fields = {f for f in BillingState.__dataclass_fields__ if f not in ("payments", "grants", "revoked")}
    data = {k: v for k, v in record.items() if k in fields}
    data["features"] = tuple(FeaturePurchase(**f) for f in record.get("features") or [])
    data["addons"] = tuple(AddonSubscription(**a) for a in record.get("addons") or [])
    data["duplicate_subscriptions"] = tuple(record.get("duplicate_subscriptions") or ())
    data.setdefault("status", "none")
    return BillingState(**data)
