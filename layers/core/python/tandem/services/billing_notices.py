"""Billing and account emails the billing sync sends (source `billing_account`, email mandatory):
the receipt when a payment lands. The sync (tandem.services.billing.sync_account) calls
`payments_landed` with every payment it read; each payment's receipt is queued once
(PaymentNotice: the claims made are read in one batch, only new payments are claimed, and the
claim itself is conditional), and only for payments of the last few days, so a first sync of
an older account sends no receipts for history."""

from __future__ import annotations

from collections.abc import Iterable

from tandem.domain.billing import Payment
from tandem.integrations.email_templates import money
from tandem.observability import logger
from tandem.services import mailer, notify
from tandem.store.notify import PaymentNotice

RECENT = 3 * 24 * 3600  # a payment older than this when first seen is history, not news
KEEP = 14 * 24 * 3600  # beyond RECENT: a claim outlives any sync that could still see it as new
BILLING_PATH = "/account/subscriptions/"

DESCRIPTIONS = {
    "main": "your Tandem subscription",
    "addon": "your add-on credits",
    "extra": "extra credits",
    "fixed_term": "your fixed-term access",
    "feature": "your Pitch Area feature",
}


def payments_landed(account_id: str, payments: Iterable[Payment], now: int) -> int:
    """Queue the receipt of each newly paid payment; returns how many were queued. The claims
    already made are read in one batch and only new payments are claimed (a sync runs on every
    Stripe event: claiming every recent payment again cost a conditional write each)."""
    recent = [p for p in payments if p.amount > 0 and not p.fully_refunded and now - p.paid_at <= RECENT]
    if not recent:
        return 0
    noticed = PaymentNotice.noticed([p.id for p in recent])
    queued = 0
    for payment in recent:
        if payment.id in noticed or not PaymentNotice.claim(payment.id, account_id, now, KEEP):
            continue  # claimed by this sync's predecessors, or by one running alongside it
        try:
            _queue(account_id, payment)
        except Exception:
            PaymentNotice.at(payment.id).delete()  # the sync fails and is retried: it queues it then
            raise
        logger.info("Receipt queued", extra={"account": account_id, "payment": payment.id})
        queued += 1
    return queued


def _queue(account_id: str, payment: Payment) -> None:
    notify.notify(
        account_id=account_id,
        source="billing_account",
        template="payment_received",
        context={
            "amount": payment.amount,
            "currency": payment.currency,
            "description": DESCRIPTIONS.get(payment.kind, "your Tandem purchase"),
            "billing_url": mailer.link(BILLING_PATH),
        },
        push={
            "title": "Payment received",
            "body": f"Thank you: {money(payment.amount, payment.currency)}.",
            "url": BILLING_PATH,
        },
        subject=payment.id,
    )
