"""The billing sync: one `sync_account` re-reads the account's Stripe customer(s)
(subscriptions, invoices, checkout sessions, charges), computes the billing state with
`tandem.domain.billing.compute`, makes the credit grants it earns (which, and when:
tandem.domain.billing.grants; each keyed by its grant key, the ledger's op id, so a redelivered
event, or checkout.session.completed and invoice.paid for one invoice, never grant twice; the
ledger is services/credits.py), takes back the credits of refunded payments, and writes the
billing record on the account: Stripe's part of the account only (issue 21: what Tandem grants,
Account.tandem_grants, is never read or written here). Every Stripe event and the
payment-processing page call it; nothing trusts an event's payload or order. A sync whose
snapshot was read before the one already written leaves the account alone
(`billing_synced_at`), so two syncs at once cannot put an older state back."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from tandem.domain import billing
from tandem.domain import entitlements as entitlement_rules
from tandem.integrations import stripe_client
from tandem.observability import count_event, logger
from tandem.services import billing_notices, credits
from tandem.services.billing.customers import account_of_customer, customers_of
from tandem.store.admin import approval_queue_actions
from tandem.store.errors import ConditionFailed
from tandem.store.models import Account, update_only

SESSIONS_KEPT = 50  # paid checkout sessions remembered on the record (payment-status `processed`)


def record(account_id: str) -> dict[str, Any]:
    """The billing record on the account ({} before its first sync)."""
    account = Account.find(account_id, consistent=True)
    return dict((account.billing if account else None) or {})


def _record_input(account: Account) -> dict[str, Any]:
    """What the Stripe computation needs of the account beyond Stripe: the admin's approval and
    the last payment already noticed. Nothing Tandem grants goes in, nothing of it comes out."""
    stored = account.billing or {}
    return {
        "approval": account.billing_approval,
        "feature_only": False,
        "last_payment_id": stored.get("latest_payment_id"),
    }


def _paid_sessions(snapshot: dict[str, Any]) -> list[str]:
    paid = [
        s
        for s in snapshot.get("checkout_sessions") or []
        if s.get("status") == "complete" and s.get("payment_status") in ("paid", "no_payment_required")
    ]
    paid.sort(key=lambda s: (int(s.get("created") or 0), s.get("id") or ""), reverse=True)
    return [s["id"] for s in paid[:SESSIONS_KEPT]]


def sync_account(account_id: str, now: int | None = None) -> billing.BillingState | None:
    """Re-read the account's Stripe customers and write what they add up to. None when the
    account has no Stripe customer (nothing to read)."""
    now = int(now if now is not None else time.time())
    account = Account.find(account_id, consistent=True)
    customers = customers_of(account)
    if account is None or not customers:
        return None
    read_at = int(time.time() * 1000)
    snapshot = stripe_client.fetch_customer_snapshot(customers)
    held = credits.buckets(account_id)
    state = billing.compute(snapshot, _record_input(account), now)
    if _end_second_plans(account_id, snapshot, state):
        return sync_account(account_id, now)  # read again: the extra plans are ended now
    existing = credits.granted(held, {g.key for g in state.grants} | set(state.revoked))
    # The plan first, then its credits: a member who sees the new credits can spend them
    # (granting first left a moment with 6 credits and no plan, and a send was refused).
    record = {**state.to_record(), "paid_sessions": _paid_sessions(snapshot)}
    try:
        update_only(
            Account,
            Account.key(account_id),
            actions=[
                Account.billing.set(record),
                Account.billing_synced_at.set(read_at),
                Account.subscription_status.set(_stored_status(state.status)),
                Account.subscription_valid_to.set(state.valid_to)
                if state.valid_to is not None
                else Account.subscription_valid_to.remove(),
                *Account.due_actions(billing.next_grant_at(state, now), account_id),
                *approval_queue_actions(_pending_since(state, now), account_id),
            ],
            condition=Account.billing_synced_at.does_not_exist() | (Account.billing_synced_at < read_at),
        )
    except ConditionFailed:
        logger.info("A later billing sync was written first", extra={"account": account_id})
    made = billing.grants_to_make(state, existing, now)
    for grant in made:
        credits.grant(
            account_id,
            kind=grant.kind,
            amount=grant.amount,
            valid_from=grant.valid_from,
            valid_to=grant.valid_to,
            op_id=grant.key,
            product_name=grant.product_name,
        )
    for key in billing.revocations(state, existing):
        credits.revoke(account_id, key, "payment refunded")
    billing_notices.payments_landed(account_id, state.payments, now)  # receipts, once per payment
    logger.info(
        "Billing synced",
        extra={"account": account_id, "status": state.status, "granted": [g.key for g in made]},
    )
    return state


def _end_second_plans(account_id: str, snapshot: dict[str, Any], state: billing.BillingState) -> bool:
    """An account holds one main plan. A second live one (the trial claim keeps a second trial
    from being opened, and Billing offers no plan while one is in force; this is the net under
    both, for two tabs paid at once or a session opened around them) is ended at Stripe:
    a second trial is cancelled before it invoices anything (DuplicateTrialCancelled); a second
    paid plan is cancelled and its payment refunded in full, so the member pays once
    (DuplicatePlanRefunded; the refund takes back the credits it granted, as any refund does).
    Both alarm (docs/runbook.md). True when one was ended."""
    trialing = {s.get("id") for s in snapshot.get("subscriptions") or [] if s.get("status") == "trialing"}
    for sub in state.duplicate_subscriptions:
        if sub in trialing:
            stripe_client.cancel_subscription_now(
                sub, "A second free trial for one account: cancelled, nothing charged"
            )
            count_event("DuplicateTrialCancelled")
            logger.error(
                "A second free trial was cancelled", extra={"account": account_id, "subscription": sub}
            )
            continue
        paid = [
            p for p in state.payments if p.subscription == sub and p.amount > 0 and p.refunded_amount == 0
        ]
        for payment in paid:
            if payment.payment_intents:
                stripe_client.refund_payment(payment.id, payment.payment_intents[0], sub, why="second_plan")
        stripe_client.cancel_subscription_now(
            sub, "A second plan for one account: cancelled, its payment refunded"
        )
        count_event("DuplicatePlanRefunded")
        logger.error(
            "A second paid plan was cancelled and refunded",
            extra={"account": account_id, "subscription": sub, "payments": [p.id for p in paid]},
        )
    return bool(state.duplicate_subscriptions)


def _pending_since(state: billing.BillingState, now: int) -> str | None:
    """When the plan awaiting approval began (the admin console's queue), else None."""
    if state.status != "pending_approval":
        return None

    return datetime.fromtimestamp(int(state.period_start or now), UTC).isoformat()


def _stored_status(status: str) -> str:
    """subscription_status keeps the Stripe plan statuses (tandem.domain.entitlements reads them)."""
    return status if status in entitlement_rules.STRIPE_PLANS else "none"


def grant_due_months(now: int | None = None) -> dict[str, Any]:
    """Scheduler job: a yearly plan is invoiced once a year but earns 6 credits each month (and
    a fixed term every 30 days): sync every account whose next credit month has begun."""
    now = int(now if now is not None else time.time())
    synced, failed = 0, []
    for account in list(Account.due_by(now)):
        try:
            sync_account(account.account_id, now)
            synced += 1
        except Exception:  # one account's Stripe trouble does not stop the others
            logger.exception("Monthly grant failed", extra={"account": account.account_id})
            failed.append(account.account_id)
    return {"synced": synced, "failed": failed}


def sync_customer(customer_id: str, now: int | None = None) -> billing.BillingState | None:
    """sync_account for the account the customer belongs to (None: not one of ours)."""
    account_id = account_of_customer(customer_id)
    return sync_account(account_id, now) if account_id else None
