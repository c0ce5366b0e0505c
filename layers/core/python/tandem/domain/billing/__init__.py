"""Billing reconciliation (no I/O, no stripe import): from one customer's whole Stripe state to
the account's billing state and the credit grants its payments earn.

`sync_customer` (the billing workflow, the payment-processing page) reads a snapshot of the
customer from Stripe (`tandem.integrations.stripe_client.fetch_customer_snapshot`), calls
`compute(snapshot, record, now)` and writes the result: the billing record on the account and
`grants_to_make(...)` / `revocations(...)` on the credit ledger. Nothing here trusts an event's
payload or order: the answer is a function of the snapshot, so duplicated, reordered or lost
webhooks cannot change it, and every grant has a deterministic key (the ledger's op id) so it
is made once whoever asks first.

Snapshot (plain dicts as the stripe library's `to_dict()` returns them, API 2026-10-28.endive):
    {"subscriptions": [...],      # status=all; items.data[].price (with metadata), periods on items
     "invoices": [...],           # lines, billing_reason, status, status_transitions, parent,
                                  # payments (expanded: payment.payment_intent)
     "checkout_sessions": [...],  # mode, status, payment_status, metadata, client_reference_id,
                                  # payment_intent, subscription, invoice, line_items (expanded)
     "charges": [...],            # payment_intent, created, amount, amount_refunded, refunded
     "refunds": [...],            # amount, status, payment_intent, charge, created
     "prices": [...]}             # prices met on invoice lines that items/sessions do not carry
Record (what the account already holds; every key optional):
    {"approval": None | "required" | "approved" | "refused",
     "feature_only": bool,        # the user type 'feature' (reduced menu)
     "last_payment_id": str | None}

Credit rules (SPEC sections 1 and 9, issue 12):
- Main plan: 6 credits a credit month, no rollover. A monthly invoice's period is one credit
  month; a yearly period is split into 12 months from its start (day-anchored, as Stripe
  bills); the scheduler grants each month when it begins (`due_main_grants`). A 3-month access
  is three 30-day months from payment. Keys: `main:<subscription>:<YYYY-MM-DD of the month's
  start>`, `fixed:<checkout session>:<0..2>`.
- Never two main grants at once: a credit month that begins while an earlier main grant is
  still valid starts when that grant ends; if less than half of it would be left it is skipped
  and the next month (when it follows on) starts when that grant ends instead, so there is no
  gap either. So a monthly -> yearly upgrade (its `subscription_update` invoice is a new paid
  period, not a renewal) gives no second 6 in the month of the upgrade; the yearly credits
  begin when the paid month's end. Months of a period cut short (an interval change, an ended
  plan) that begin after the cut are not granted.
- One-time extra credits: valid 30 days from payment, key `extra:<checkout session>`.
- Recurring add-on credits: each paid period, key `addon:<subscription>:<YYYY-MM-DD>`.
- Subscription grants come from paid invoices only and one-off grants from paid Checkout
  Sessions only, so checkout.session.completed and invoice.paid for the same payment are one.
- A payment refunded in full takes back the unspent credits of every grant it earned
  (`revocations`) and grants nothing more; when it is the plan's latest payment the plan ends
  (the money-back guarantee is 30 days: `within_guarantee`).

The package, by what each part does:
- results.py   the statuses and what reconciliation answers with (BillingState and its parts);
- snapshot.py  reading one customer's Stripe snapshot into payments and purchases;
- grants.py    the credits: the grants paid periods and purchases earn (the credit-month
               calendar), and which of them to write (`grants_to_make`, `revocations`);
- compute.py   the account's state (`compute`: the plan, its status, what it holds).
"""

from __future__ import annotations

from tandem.domain.billing.compute import (
    compute,
    refundable_payment,
    state_from_record,
    within_guarantee,
)
from tandem.domain.billing.grants import (
    due_grants,
    due_main_grants,
    grants_to_make,
    next_grant_at,
    revocations,
)
from tandem.domain.billing.results import (
    APPROVALS,
    DAY,
    GUARANTEE_DAYS,
    LEDGER_KIND,
    LIVE_SUB_STATUSES,
    MIN_SHIFTED_SHARE,
    STATUSES,
    AddonSubscription,
    BillingState,
    FeaturePurchase,
    Grant,
    Payment,
)
from tandem.domain.months import add_months

__all__ = [
    "DAY",
    "GUARANTEE_DAYS",
    "MIN_SHIFTED_SHARE",
    "STATUSES",
    "LIVE_SUB_STATUSES",
    "APPROVALS",
    "LEDGER_KIND",
    "Grant",
    "Payment",
    "FeaturePurchase",
    "AddonSubscription",
    "BillingState",
    "add_months",
    "compute",
    "due_grants",
    "due_main_grants",
    "grants_to_make",
    "revocations",
    "next_grant_at",
    "within_guarantee",
    "refundable_payment",
    "state_from_record",
]
